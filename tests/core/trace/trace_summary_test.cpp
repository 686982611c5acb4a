// The per-rank GPU time summary (trace/trace_summary.h) over small hand-built traces whose
// figures are worked out by hand in the comments, and the GPU helpers it stands on
// (trace/trace_gpu.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hand_trace.h"
#include "trace/trace_gpu.h"
#include "trace/trace_import.h"
#include "trace/trace_summary.h"

namespace slimpack {
namespace {

TraceSummary summarize(const HandTrace& t, const TraceSummaryOptions& o = {}) {
  const ImportedTrace trace = import(t);
  auto s = summarize_trace(trace, o);
  EXPECT_TRUE(s.ok());
  return s.ok() ? *s : TraceSummary{};
}

// Two steps of one rank: overlapping streams, communication under computation, a memory copy
// partly under computation, and idle gaps of each cause.
//
// step 1 [0, 100):
//   k1   compute  stream 7   [10, 40)    launched at 5 (call 2 us)
//   nccl comm     stream 20  [30, 60)    launched at 8 (call 2)
//   k2   compute  stream 7   [50, 70)    launched at 45 (call 2)
//   cpy  memcpy   stream 30  [65, 80)    launched at 60 (call 1, cudaMemcpyAsync)
//   C = [10,40) + [50,70) = 50; M = 30, C∩M = [30,40) + [50,60) = 20 -> comm 10 ([40,50));
//   Y = 15, under C∪M = [10,70): [65,70) = 5 -> memcpy 10; busy = [10,80) = 70 = 50+10+10;
//   idle 30 = [0,10) host (before the first operation) + [80,100) other (see step 2).
// step 2 [100, 200):
//   k3   compute  stream 7   [110, 150)        launched at 75: before the GPU fell idle at 80,
//                                              so the gap [80,110) is not the host's, and at
//                                              30 us it is not shorter than the kernel gap
//                                              (30 us): "other"
//   k4   compute  stream 7   [150.015625, 170) launched at 120: gap 1/64 us < 30 -> "kernel"
//   k5   compute  stream 8   [160, 190)        launched at 155 (call 1)
//   k6   comm     stream 20  [195, 230)        launched at 192 > 190: gap [190,195) "host"
//   C = 40 + [150.015625,190) 39.984375 = 79.984375; M ∩ W = [195,200) = 5, no overlap;
//   busy 84.984375; idle 15.015625 = other [100,110) 10 + kernel 0.015625 + host [190,195) 5.
// whole trace [0, 230): C 129.984375, M 65 (overlap 20 -> comm 45), memcpy 10,
//   busy 184.984375, idle 45.015625 = host 15 + kernel 0.015625 + other 30.
HandTrace two_steps() {
  HandTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.op("kernel", "k1", 7, 10, 30, 5, 2);
  t.op("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 20, 30, 30, 8, 2);
  t.op("kernel", "k2", 7, 50, 20, 45, 2);
  t.op("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 30, 65, 15, 60, 1, "cudaMemcpyAsync");
  t.op("kernel", "k3", 7, 110, 40, 75, 2);
  t.op("kernel", "k4", 7, 150.015625, 19.984375, 120, 2);
  t.op("kernel", "k5", 8, 160, 30, 155, 1);
  t.op("kernel", "ncclKernel_AllGather", 20, 195, 35, 192, 1);
  return t;
}

TEST(TraceSummary, TwoStepsHandComputed) {
  const TraceSummary s = summarize(two_steps());
  EXPECT_EQ(s.gpu_ops, 8);
  EXPECT_DOUBLE_EQ(s.gpu_first_us, 10);
  EXPECT_DOUBLE_EQ(s.gpu_last_us, 230);
  ASSERT_EQ(s.steps.size(), 2u);

  const GpuTimeBreakdown& a = s.steps[0];
  EXPECT_EQ(a.step, 1);
  EXPECT_DOUBLE_EQ(a.span_us, 100);
  EXPECT_DOUBLE_EQ(a.computation_us, 50);
  EXPECT_DOUBLE_EQ(a.communication_total_us, 30);
  EXPECT_DOUBLE_EQ(a.overlap_us, 20);
  EXPECT_DOUBLE_EQ(a.communication_us, 10);
  EXPECT_DOUBLE_EQ(a.memcpy_total_us, 15);
  EXPECT_DOUBLE_EQ(a.memcpy_us, 10);
  EXPECT_DOUBLE_EQ(a.gpu_busy_us, 70);
  EXPECT_DOUBLE_EQ(a.idle_us, 30);
  EXPECT_DOUBLE_EQ(a.idle_host_us, 10);
  EXPECT_DOUBLE_EQ(a.idle_kernel_us, 0);
  EXPECT_DOUBLE_EQ(a.idle_other_us, 20);
  EXPECT_EQ(a.gpu_ops, 4);

  const GpuTimeBreakdown& b = s.steps[1];
  EXPECT_EQ(b.step, 2);
  EXPECT_DOUBLE_EQ(b.span_us, 100);
  EXPECT_DOUBLE_EQ(b.computation_us, 79.984375);
  EXPECT_DOUBLE_EQ(b.communication_us, 5);
  EXPECT_DOUBLE_EQ(b.overlap_us, 0);
  EXPECT_DOUBLE_EQ(b.memcpy_us, 0);
  EXPECT_DOUBLE_EQ(b.gpu_busy_us, 84.984375);
  EXPECT_DOUBLE_EQ(b.idle_us, 15.015625);
  EXPECT_DOUBLE_EQ(b.idle_host_us, 5);
  EXPECT_DOUBLE_EQ(b.idle_kernel_us, 0.015625);
  EXPECT_DOUBLE_EQ(b.idle_other_us, 10);
  EXPECT_EQ(b.gpu_ops, 4);

  const GpuTimeBreakdown& w = s.total;
  EXPECT_FALSE(w.step.has_value());
  EXPECT_DOUBLE_EQ(w.start_us, 0);
  EXPECT_DOUBLE_EQ(w.span_us, 230);
  EXPECT_DOUBLE_EQ(w.computation_us, 129.984375);
  EXPECT_DOUBLE_EQ(w.communication_total_us, 65);
  EXPECT_DOUBLE_EQ(w.overlap_us, 20);
  EXPECT_DOUBLE_EQ(w.communication_us, 45);
  EXPECT_DOUBLE_EQ(w.memcpy_us, 10);
  EXPECT_DOUBLE_EQ(w.gpu_busy_us, 184.984375);
  EXPECT_DOUBLE_EQ(w.idle_us, 45.015625);
  EXPECT_DOUBLE_EQ(w.idle_host_us, 15);
  EXPECT_DOUBLE_EQ(w.idle_kernel_us, 0.015625);
  EXPECT_DOUBLE_EQ(w.idle_other_us, 30);
  EXPECT_EQ(w.gpu_ops, 8);
  // The parts stack up to the window.
  for (const GpuTimeBreakdown* x : {&a, &b, &w}) {
    EXPECT_DOUBLE_EQ(x->computation_us + x->communication_us + x->memcpy_us, x->gpu_busy_us);
    EXPECT_DOUBLE_EQ(x->idle_host_us + x->idle_kernel_us + x->idle_other_us, x->idle_us);
  }
}

// Launches of the whole trace: calls 2,2,2,1,2,2,1,1 us; delays (start - call end, >= 0):
// k1 10-7=3, nccl 30-10=20, k2 50-47=3, cpy 65-61=4, k3 110-77=33, k4 150.015625-122=28.015625,
// k5 160-156=4, k6 195-193=2. Sorted 2 3 3 4 4 20 28.015625 33: median 4, mean 97.015625/8.
TEST(TraceSummary, LaunchStatisticsHandComputed) {
  TraceSummaryOptions o;
  o.runtime_cutoff_us = 1.5;        // the 2 us calls are over it: 5 of them
  o.launch_delay_cutoff_us = 10.0;  // 20, 28.015625, 33
  const TraceSummary s = summarize(two_steps(), o);
  const LaunchStats& l = s.total.launches;
  EXPECT_EQ(l.count, 8);
  EXPECT_EQ(l.with_cpu_call, 8);
  EXPECT_DOUBLE_EQ(l.cpu_us_mean, 13.0 / 8.0);
  EXPECT_DOUBLE_EQ(l.cpu_us_max, 2);
  EXPECT_DOUBLE_EQ(l.delay_us_mean, 97.015625 / 8.0);
  EXPECT_DOUBLE_EQ(l.delay_us_median, 4);
  EXPECT_DOUBLE_EQ(l.delay_us_max, 33);
  EXPECT_EQ(l.cpu_over_cutoff, 5);
  EXPECT_EQ(l.delay_over_cutoff, 3);
  // Step 1 holds k1, nccl, k2, cpy: delays 3 20 3 4 -> median (3+4)/2.
  EXPECT_EQ(s.steps[0].launches.count, 4);
  EXPECT_DOUBLE_EQ(s.steps[0].launches.delay_us_median, 3.5);
  EXPECT_DOUBLE_EQ(s.steps[0].launches.delay_us_max, 20);
}

TEST(TraceSummary, OverlappingStreamsCountOnce) {
  // Two computation kernels at once on two streams: 15 us of GPU time, not 20.
  HandTrace t;
  t.bare("kernel", "gemm_a", 7, 0, 10);
  t.bare("kernel", "gemm_b", 8, 5, 10);
  const TraceSummary s = summarize(t);
  EXPECT_DOUBLE_EQ(s.total.span_us, 15);
  EXPECT_DOUBLE_EQ(s.total.computation_us, 15);
  EXPECT_DOUBLE_EQ(s.total.gpu_busy_us, 15);
  EXPECT_DOUBLE_EQ(s.total.idle_us, 0);
  EXPECT_TRUE(s.steps.empty());  // no ProfilerStep: the whole trace only
  EXPECT_EQ(s.total.launches.count, 0);
}

TEST(TraceSummary, CommunicationUnderComputationIsOverlap) {
  // comm [0, 100) on stream 20; compute [20, 50) and [40, 70) on streams 7, 8: C = [20, 70) = 50,
  // all under M: overlap 50, exposed communication 50, busy 100.
  HandTrace t;
  t.bare("kernel", "ncclDevKernel_ReduceScatter", 20, 0, 100);
  t.bare("kernel", "gemm", 7, 20, 30);
  t.bare("kernel", "gemm", 8, 40, 30);
  const TraceSummary s = summarize(t);
  EXPECT_DOUBLE_EQ(s.total.computation_us, 50);
  EXPECT_DOUBLE_EQ(s.total.overlap_us, 50);
  EXPECT_DOUBLE_EQ(s.total.communication_total_us, 100);
  EXPECT_DOUBLE_EQ(s.total.communication_us, 50);
  EXPECT_DOUBLE_EQ(s.total.gpu_busy_us, 100);
}

TEST(TraceSummary, IdleWithoutLaunchIsNotTheHosts) {
  // No launches: the gaps [10, 20) and [30, 30.0078125) between kernels cannot be the host's;
  // both are under the default 30 us: kernel wait.
  HandTrace t;
  t.step(1, 0, 40);
  t.bare("kernel", "a", 7, 0, 10);
  t.bare("kernel", "b", 7, 20, 10);
  t.bare("kernel", "c", 7, 30.0078125, 5);  // gap 1/128 us
  const TraceSummary s = summarize(t);
  ASSERT_EQ(s.steps.size(), 1u);
  const GpuTimeBreakdown& b = s.steps[0];
  EXPECT_DOUBLE_EQ(b.gpu_busy_us, 25);
  EXPECT_DOUBLE_EQ(b.idle_us, 15);
  EXPECT_DOUBLE_EQ(b.idle_other_us, 0);
  EXPECT_DOUBLE_EQ(b.idle_kernel_us, 10.0078125);
  // After the last operation (35.0078125 to the step's end, 40) nothing else runs: the host's.
  EXPECT_DOUBLE_EQ(b.idle_host_us, 40 - 35.0078125);
  // HTA's documented 30 ns (the default before): only the 1/128 us gap is kernel wait.
  TraceSummaryOptions o;
  o.kernel_gap_us = 0.03;
  EXPECT_DOUBLE_EQ(summarize(t, o).steps[0].idle_kernel_us, 0.0078125);
  EXPECT_DOUBLE_EQ(summarize(t, o).steps[0].idle_other_us, 10);
}

TEST(TraceSummary, KernelWaitIsGapsUnderHtas30us) {
  // No launches known. Gaps: [10, 39.5) 29.5 us kernel, [50, 80) 30 us other (not shorter than
  // the threshold), [90, 90.5) 0.5 us kernel. Window [0, 100): busy 40, idle 60 = kernel 30 +
  // other 30; nothing before the first or after the last operation.
  HandTrace t;
  t.bare("kernel", "a", 7, 0, 10);
  t.bare("kernel", "b", 7, 39.5, 10.5);
  t.bare("kernel", "c", 7, 80, 10);
  t.bare("kernel", "d", 7, 90.5, 9.5);
  const TraceSummary s = summarize(t);
  EXPECT_DOUBLE_EQ(s.total.span_us, 100);
  EXPECT_DOUBLE_EQ(s.total.gpu_busy_us, 40);
  EXPECT_DOUBLE_EQ(s.total.idle_kernel_us, 30);
  EXPECT_DOUBLE_EQ(s.total.idle_other_us, 30);
  EXPECT_DOUBLE_EQ(s.total.idle_host_us, 0);
  EXPECT_DOUBLE_EQ(TraceSummaryOptions{}.kernel_gap_us, 30);
}

TEST(TraceSummary, LegacyCategoriesAndAnnotations) {
  // torch 1.x wrote "Kernel" and "Memcpy"; a gpu_user_annotation on the stream and a cuda_sync
  // are not operations; a memset category is memory.
  HandTrace t;
  t.bare("gpu_user_annotation", "forward", 7, 0, 100);
  t.bare("Kernel", "gemm", 7, 10, 10);
  t.bare("Memcpy", "Memcpy HtoD", 7, 30, 10);
  t.bare("gpu_memset", "Memset (Device)", 7, 50, 10);
  t.bare("cuda_sync", "Stream Sync", 7, 70, 10);
  const TraceSummary s = summarize(t);
  EXPECT_EQ(s.gpu_ops, 3);
  EXPECT_DOUBLE_EQ(s.total.computation_us, 10);
  EXPECT_DOUBLE_EQ(s.total.memcpy_us, 20);
  EXPECT_DOUBLE_EQ(s.total.gpu_busy_us, 30);
  EXPECT_DOUBLE_EQ(s.total.span_us, 100);  // the annotation spans the trace
}

TEST(TraceSummary, NoGpuOperation) {
  HandTrace t;
  t.step(1, 0, 100);
  t.x("cpu_op", "aten::add", "1", "1", 10, 5);
  const TraceSummary s = summarize(t);
  EXPECT_EQ(s.gpu_ops, 0);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_DOUBLE_EQ(s.steps[0].gpu_busy_us, 0);
}

TEST(TraceSummary, KernelsThatOutliveTheirStepAreClipped) {
  // The step's window is its CPU span: a kernel running past its end counts in the next window.
  HandTrace t;
  t.step(1, 0, 50);
  t.step(2, 50, 50);
  t.bare("kernel", "gemm", 7, 40, 20);  // 10 in step 1, 10 in step 2
  const TraceSummary s = summarize(t);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_DOUBLE_EQ(s.steps[0].computation_us, 10);
  EXPECT_DOUBLE_EQ(s.steps[1].computation_us, 10);
  EXPECT_EQ(s.steps[0].gpu_ops, 1);  // counted where it starts
  EXPECT_EQ(s.steps[1].gpu_ops, 0);
}

TEST(TraceGpu, KindsFollowHta) {
  EXPECT_EQ(gpu_op_kind("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"),
            GpuOpKind::Communication);
  EXPECT_EQ(gpu_op_kind("kernel", "void ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"),
            GpuOpKind::Communication);
  EXPECT_EQ(gpu_op_kind("kernel", "ncclKernel_AllReduce"), GpuOpKind::Communication);
  EXPECT_EQ(gpu_op_kind("kernel", "sm90_xmma_gemm_bf16bf16_bf16f32"), GpuOpKind::Computation);
  EXPECT_EQ(gpu_op_kind("kernel", "Memset (Device)"), GpuOpKind::Memory);
  EXPECT_EQ(gpu_op_kind("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)"), GpuOpKind::Memory);
  EXPECT_EQ(gpu_op_kind("Kernel", "gemm"), GpuOpKind::Computation);
  EXPECT_EQ(gpu_op_kind("gpu_user_annotation", "forward"), GpuOpKind::None);
  EXPECT_EQ(gpu_op_kind("cuda_runtime", "cudaLaunchKernel"), GpuOpKind::None);
  EXPECT_EQ(gpu_op_kind("cpu_op", "ncclKernel"), GpuOpKind::None);
}

TEST(TraceGpu, StepNamesAndTheProfilerSpan) {
  EXPECT_EQ(profiler_step_number("ProfilerStep#12"), 12);
  EXPECT_EQ(profiler_step_number("ProfilerStep #3"), 3);
  EXPECT_EQ(profiler_step_number("ProfilerStep# 0"), 0);
  EXPECT_FALSE(profiler_step_number("ProfilerStep#"));
  EXPECT_FALSE(profiler_step_number("ProfilerStep#-1"));
  EXPECT_FALSE(profiler_step_number("ProfilerStep#1 backward"));
  EXPECT_FALSE(profiler_step_number("MyProfilerStep#1"));
  EXPECT_TRUE(is_profiler_span_name("PyTorch Profiler (0)"));
  EXPECT_TRUE(is_profiler_span_name("PyTorch Profiler (12)"));
  EXPECT_FALSE(is_profiler_span_name("PyTorch Profiler ()"));
  EXPECT_FALSE(is_profiler_span_name("PyTorch Profiler (x)"));
  EXPECT_FALSE(is_profiler_span_name("PyTorch Profiler"));
}

TEST(TraceGpu, OneStepOnTwoThreadsIsOneSpan) {
  HandTrace t;
  t.x("user_annotation", "ProfilerStep#4", "1", "1", 10, 50);
  t.x("user_annotation", "ProfilerStep#4", "1", "2", 5, 40);
  t.x("gpu_user_annotation", "ProfilerStep#4", "0", "7", 0, 100);  // Kineto's GPU copy
  t.x("user_annotation", "ProfilerStep#3", "1", "1", 0, 10);
  const auto steps = profiler_steps(import(t));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].step, 3);
  EXPECT_EQ(steps[1].step, 4);
  EXPECT_DOUBLE_EQ(steps[1].start_us, 5);
  EXPECT_DOUBLE_EQ(steps[1].end_us, 60);
}

// ProfilerStep#1 [0, 100), #2 [100, 200), then #1 again [200, 300) (a profiler restarted): one
// gemm in each, [10, 30), [110, 150), [210, 260).
HandTrace repeated_step() {
  HandTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.step(1, 200, 100);
  t.bare("kernel", "gemm", 7, 10, 20);
  t.bare("kernel", "gemm", 7, 110, 40);
  t.bare("kernel", "gemm", 7, 210, 50);
  return t;
}

TEST(TraceGpu, ARepeatedStepNumberIsTwoSteps) {
  const auto steps = profiler_steps(import(repeated_step()));
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].step, 1);
  EXPECT_EQ(steps[0].occurrence, 1);
  EXPECT_DOUBLE_EQ(steps[0].end_us, 100);  // not one window [0, 300) over step 2
  EXPECT_EQ(steps[1].step, 1);
  EXPECT_EQ(steps[1].occurrence, 2);
  EXPECT_DOUBLE_EQ(steps[1].start_us, 200);
  EXPECT_EQ(steps[2].step, 2);
  EXPECT_EQ(steps[2].occurrence, 0);
  EXPECT_EQ(profiler_step_label(steps[1]), "#1 (2)");
  EXPECT_EQ(profiler_step_label(steps[2]), "#2");
}

TEST(TraceSummary, ARepeatedStepIsSummarisedPerOccurrence) {
  // Merged, #1 would be [0, 300) with 110 us busy; each occurrence has its own window.
  const TraceSummary s = summarize(repeated_step());
  ASSERT_EQ(s.steps.size(), 3u);
  EXPECT_EQ(s.steps[0].step, 1);
  EXPECT_EQ(s.steps[0].occurrence, 1);
  EXPECT_DOUBLE_EQ(s.steps[0].span_us, 100);
  EXPECT_DOUBLE_EQ(s.steps[0].gpu_busy_us, 20);
  EXPECT_EQ(s.steps[1].occurrence, 2);
  EXPECT_DOUBLE_EQ(s.steps[1].gpu_busy_us, 50);
  EXPECT_EQ(s.steps[2].step, 2);
  EXPECT_DOUBLE_EQ(s.steps[2].gpu_busy_us, 40);
}

TEST(TraceGpu, LaunchesFollowFlows) {
  const ImportedTrace trace = import(two_steps());
  const auto ops = gpu_ops(trace);
  ASSERT_EQ(ops.size(), 8u);
  for (const GpuOp& op : ops) ASSERT_TRUE(op.launch.has_value());
  EXPECT_DOUBLE_EQ(ops[0].start_us, 10);
  EXPECT_DOUBLE_EQ(ops[0].launch->start_us, 5);
  EXPECT_DOUBLE_EQ(ops[0].launch->cpu_dur_us, 2);  // the cudaLaunchKernel, not the step around it
  EXPECT_EQ(ops[1].kind, GpuOpKind::Communication);
  EXPECT_EQ(ops[3].kind, GpuOpKind::Memory);
}

}  // namespace
}  // namespace slimpack
