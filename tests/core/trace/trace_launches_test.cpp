// GPU operations tied to their launches (trace/trace_launches.h) by each way a trace says it: an
// "ac2g" flow, an "async_cpu_to_gpu" flow, or only args.correlation; and what the launches decide
// downstream: the idle time the host is blamed for (trace summary) and the step a GPU operation
// belongs to (trace compare --steps). Figures worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "compare_helpers.h"
#include "hand_trace.h"
#include "trace/trace_flows.h"
#include "trace/trace_gpu.h"
#include "trace/trace_launches.h"
#include "trace/trace_summary.h"

namespace slimpack {
namespace {

// Steps [0, 100) and [100, 200); kernels "gemm" on stream 7, each launched by a 2 us call:
//   k1 [10, 40)   launched at 5
//   k2 [60, 80)   launched at 50: after the GPU fell idle at 40, so [40, 60) is the host's (20)
//   k3 [85, 95)   launched at 30: gap [80, 85) of 5 us, not the host's: kernel (threshold 10)
//   k4 [120, 150) launched at 90, in step 1: gap [95, 120) of 25 us, not the host's: other
// Before k1 and after k4 the GPU waits on the host: [0, 10) and [150, 200).
// Whole trace [0, 200): busy 90, idle 110 = host 10 + 20 + 50, kernel 5, other 25.
// Step 1: busy 60, idle 40 = host 10 + 20, kernel 5, other [95, 100) 5.
// Step 2: busy 30, idle 70 = other [100, 120) 20, host [150, 200) 50.
HandTrace launched(HandLink link) {
  HandTrace t;
  t.link = link;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.op("kernel", "gemm", 7, 10, 30, 5, 2);
  t.op("kernel", "gemm", 7, 60, 20, 50, 2);
  t.op("kernel", "gemm", 7, 85, 10, 30, 2);
  t.op("kernel", "gemm", 7, 120, 30, 90, 2);
  return t;
}

// The same kernels with nothing tying them to their calls.
HandTrace unlinked() {
  HandTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  for (const auto& [ts, dur, launch] :
       {std::tuple{10.0, 30.0, 5.0}, std::tuple{60.0, 20.0, 50.0}, std::tuple{85.0, 10.0, 30.0},
        std::tuple{120.0, 30.0, 90.0}}) {
    t.x("cuda_runtime", "cudaLaunchKernel", "1", "1", launch, 2);
    t.bare("kernel", "gemm", 7, ts, dur);
  }
  return t;
}

TraceSummary summarized(const ImportedTrace& trace) {
  TraceSummaryOptions o;
  o.kernel_gap_us = 10;
  auto s = summarize_trace(trace, o);
  EXPECT_TRUE(s.ok());
  return s.ok() ? *s : TraceSummary{};
}

class LaunchLinks : public ::testing::TestWithParam<HandLink> {};

// The summary imports without args text, the explorer with it: both read the correlation.
TEST_P(LaunchLinks, EveryKindGivesTheSameLaunches) {
  for (const bool keep_args : {true, false}) {
    const ImportedTrace trace =
        import(launched(GetParam()), "hand.json", {.keep_events = true, .keep_args = keep_args});
    const auto ops = gpu_ops(trace);
    ASSERT_EQ(ops.size(), 4u);
    const double launch_at[] = {5, 50, 30, 90};
    for (std::size_t i = 0; i < ops.size(); ++i) {
      ASSERT_TRUE(ops[i].launch.has_value()) << i << " keep_args " << keep_args;
      EXPECT_DOUBLE_EQ(ops[i].launch->start_us, launch_at[i]);
      EXPECT_DOUBLE_EQ(ops[i].launch->cpu_dur_us, 2);
      EXPECT_EQ(ops[i].launch->via,
                GetParam() == HandLink::Correlation ? LaunchLink::Correlation : LaunchLink::Flow);
    }
  }
}

TEST_P(LaunchLinks, HostWaitFollowsTheLaunches) {
  const TraceSummary s = summarized(
      import(launched(GetParam()), "hand.json", {.keep_events = true, .keep_args = false}));
  const GpuTimeBreakdown& w = s.total;
  EXPECT_DOUBLE_EQ(w.gpu_busy_us, 90);
  EXPECT_DOUBLE_EQ(w.idle_host_us, 80);
  EXPECT_DOUBLE_EQ(w.idle_kernel_us, 5);
  EXPECT_DOUBLE_EQ(w.idle_other_us, 25);
  EXPECT_EQ(w.launches.count, 4);
  EXPECT_EQ(w.launches.by_correlation, GetParam() == HandLink::Correlation ? 4 : 0);
  // Delays: 10 - 7, 60 - 52, 85 - 32, 120 - 92 = 3, 8, 53, 28.
  EXPECT_DOUBLE_EQ(w.launches.delay_us_mean, 92.0 / 4.0);
  EXPECT_DOUBLE_EQ(w.launches.delay_us_max, 53);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_DOUBLE_EQ(s.steps[0].idle_host_us, 30);
  EXPECT_DOUBLE_EQ(s.steps[0].idle_kernel_us, 5);
  EXPECT_DOUBLE_EQ(s.steps[0].idle_other_us, 5);
  EXPECT_EQ(s.steps[0].launches.count, 3);  // counted in the window they start in
  EXPECT_DOUBLE_EQ(s.steps[1].idle_host_us, 50);
  EXPECT_DOUBLE_EQ(s.steps[1].idle_other_us, 20);
  EXPECT_EQ(s.steps[1].launches.count, 1);
}

TEST_P(LaunchLinks, StepsTakeGpuOperationsWhereTheyWereLaunched) {
  const ImportedTrace trace =
      import(launched(GetParam()), "hand.json", {.keep_events = true, .keep_args = false});
  TraceCompareOptions o;
  o.category = "kernel";
  o.steps = StepRange{1, 1};
  // k4 runs in step 2's window but was launched at 90, in step 1: all four are step 1's.
  auto m = test::by_name(test::compared(trace, trace, o));
  EXPECT_DOUBLE_EQ(m["gemm"].count_a, 4);
  EXPECT_DOUBLE_EQ(m["gemm"].total_us_a, 90);
  o.steps = StepRange{2, 2};
  EXPECT_EQ(test::by_name(test::compared(trace, trace, o)).count("gemm"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Kinds, LaunchLinks,
                         ::testing::Values(HandLink::Ac2g, HandLink::AsyncCpuToGpu,
                                           HandLink::Correlation),
                         [](const ::testing::TestParamInfo<HandLink>& p) {
                           return std::string(p.param == HandLink::Ac2g            ? "ac2g"
                                              : p.param == HandLink::AsyncCpuToGpu ? "async"
                                                                                   : "correlation");
                         });

TEST(LaunchLinking, WithoutLinksNoGapIsTheHosts) {
  // Only the gaps before the first and after the last operation: [40, 60) becomes "other", and
  // k4 counts in step 2, where it starts.
  const ImportedTrace trace = import(unlinked());
  const TraceSummary s = summarized(trace);
  EXPECT_DOUBLE_EQ(s.total.idle_host_us, 60);
  EXPECT_DOUBLE_EQ(s.total.idle_other_us, 45);
  EXPECT_EQ(s.total.launches.count, 0);
  TraceCompareOptions o;
  o.category = "kernel";
  o.steps = StepRange{2, 2};
  EXPECT_DOUBLE_EQ(test::by_name(test::compared(trace, trace, o))["gemm"].count_a, 1);
}

TEST(LaunchLinking, FlowsWinOverCorrelation) {
  // The flow says the kernel was launched at 5; a second runtime call with its correlation id
  // (at 1) is not taken.
  HandTrace t = launched(HandLink::Ac2g);
  t.x("cuda_runtime", "cudaLaunchKernel", "1", "1", 1, 1, "{\"correlation\": 1}");
  const auto ops = gpu_ops(import(t));
  ASSERT_TRUE(ops[0].launch.has_value());
  EXPECT_DOUBLE_EQ(ops[0].launch->start_us, 5);
}

TEST(LaunchLinking, CorrelationNeedsARuntimeCall) {
  // The kernel's id is on a cpu_op only (not a runtime or driver call): no launch. torch 1.x's
  // "Runtime" category is a runtime call.
  HandTrace t;
  t.x("cpu_op", "aten::mm", "1", "1", 0, 10, "{\"correlation\": 7}");
  t.x("kernel", "gemm", "0", "7", 20, 5, "{\"correlation\": 7}");
  t.x("Runtime", "cudaLaunchKernel", "1", "1", 30, 1, "{\"External id\": 3, \"correlation\": 8}");
  t.x("Kernel", "gemm", "0", "7", 40, 5, "{\"correlation\": 8}");
  const auto ops = gpu_ops(import(t));
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_FALSE(ops[0].launch.has_value());
  ASSERT_TRUE(ops[1].launch.has_value());
  EXPECT_DOUBLE_EQ(ops[1].launch->start_us, 30);
  EXPECT_EQ(ops[1].launch->via, LaunchLink::Correlation);
}

TEST(LaunchLinking, ImportKeepsTopLevelIntegerCorrelationsOnly) {
  // Index: 0 a top-level integer; 1 only nested; 2 a string; 3 args before "ph"; 4 an instant
  // (not a complete event); 5 a float; 6 a "B" (its pair is complete at the "E", 7).
  const std::string json = R"({"traceEvents": [
    {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 1, "args": {"x": {"correlation": 5}, "correlation": 4}},
    {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"x": {"correlation": 5}}},
    {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"correlation": "6"}},
    {"args": {"correlation": 9}, "ph": "X", "name": "d", "pid": 1, "tid": 1, "ts": 3, "dur": 1},
    {"ph": "i", "name": "e", "pid": 1, "tid": 1, "ts": 4, "args": {"correlation": 10}},
    {"ph": "X", "name": "f", "pid": 1, "tid": 1, "ts": 5, "dur": 1, "args": {"correlation": 1.5}},
    {"ph": "B", "name": "g", "pid": 1, "tid": 1, "ts": 6, "args": {"correlation": 11}},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 7}]})";
  for (const bool keep_args : {true, false}) {
    auto t =
        import_chrome_trace_text(json, "c.json", {.keep_events = true, .keep_args = keep_args});
    ASSERT_TRUE(t.ok()) << t.error().message;
    ASSERT_EQ(t->correlations.size(), 3u) << "keep_args " << keep_args;
    EXPECT_EQ(t->correlations[0].index, 0);
    EXPECT_EQ(t->correlations[0].id, 4);
    EXPECT_EQ(t->correlations[1].index, 3);
    EXPECT_EQ(t->correlations[1].id, 9);
    EXPECT_EQ(t->correlations[2].index, 6);
    EXPECT_EQ(t->correlations[2].id, 11);
  }
  // trace info keeps no events, and so no correlations.
  auto counted = import_chrome_trace_text(json, "c.json", {.keep_events = false});
  ASSERT_TRUE(counted.ok());
  EXPECT_TRUE(counted->correlations.empty());
}

TEST(LaunchLinking, UnitGpuTimeFollowsOlderFlowsToo) {
  // --trace-gpu-time flows: the kernels launched in [0, 60] on the CPU thread are k1, k3 and k2
  // (launched at 5, 30 and 50): span [10, 95).
  const ImportedTrace trace = import(launched(HandLink::AsyncCpuToGpu));
  std::int32_t cpu = -1;
  for (std::size_t i = 0; i < trace.lanes.size(); ++i)
    if (trace.lanes[i].pid == "1") cpu = static_cast<std::int32_t>(i);
  const FlowIndex flows(trace);
  const auto span = flows.gpu_span(cpu, 0, 60);
  ASSERT_TRUE(span.has_value());
  EXPECT_EQ(span->kernels, 3);
  EXPECT_DOUBLE_EQ(span->start_us, 10);
  EXPECT_DOUBLE_EQ(span->end_us, 95);
}

TEST(LaunchLinking, Categories) {
  EXPECT_TRUE(is_launch_flow_category("ac2g"));
  EXPECT_TRUE(is_launch_flow_category("async_cpu_to_gpu"));
  EXPECT_FALSE(is_launch_flow_category("fwdbwd"));
  EXPECT_TRUE(is_runtime_category("cuda_runtime"));
  EXPECT_TRUE(is_runtime_category("cuda_driver"));
  EXPECT_TRUE(is_runtime_category("Runtime"));
  EXPECT_FALSE(is_runtime_category("cpu_op"));
}

}  // namespace
}  // namespace slimpack
