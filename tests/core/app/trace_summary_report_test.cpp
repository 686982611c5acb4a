// `slimpack trace summary`'s application path over the two-rank sample run
// (samples/traces/ddp/), whose figures are worked out by hand below, and its bad inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/trace_summary_report.h"

namespace slimpack {
namespace {

const std::string kDdp = std::string(SLIMPACK_SAMPLES_DIR) + "/traces/ddp";

RunSummary ddp() {
  auto s = summarize_trace_files({kDdp});  // the folder: both ranks
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? *s : RunSummary{};
}

// rank 0, step 1 [10, 210): gemm [40,100) [100,150), nccl [110,170), memcpy [175,185).
//   C = [40,150) 110; M 60, overlap [110,150) 40 -> comm 20; memcpy 10; busy 140; idle 60:
//   [10,40) host (the first operation), [170,175) kernel (the memcpy was launched at 165, before
//   the GPU fell idle, and the gap is under HTA's 30 us), [185,210) host (the next gemm is
//   launched at 220).
// rank 0, step 2 [210, 400): gemm [230,300), flash [300,340), nccl [320,380), gemm
//   [380.015625,395) launched at 345. C = 110 + 14.984375; M 60, overlap [320,340) 20 -> comm 40;
//   busy 164.984375; idle 25.015625 = host [210,230) 20 + kernel 0.015625 + host [395,400) 5.
// rank 0, whole trace [0, 420) (the profiler span): busy 304.984375, idle 115.015625.
TEST(TraceSummaryReport, SampleRunHandComputed) {
  const RunSummary s = ddp();
  ASSERT_EQ(s.ranks.size(), 2u);
  const RankSummary& r0 = s.ranks[0];
  EXPECT_EQ(r0.rank, 0);
  EXPECT_EQ(r0.label, "rank0.pt.trace.json");
  EXPECT_TRUE(r0.no_gpu.empty());
  EXPECT_EQ(r0.summary.gpu_ops, 8);
  ASSERT_EQ(r0.summary.steps.size(), 2u);
  const GpuTimeBreakdown& a = r0.summary.steps[0];
  EXPECT_DOUBLE_EQ(a.span_us, 200);
  EXPECT_DOUBLE_EQ(a.computation_us, 110);
  EXPECT_DOUBLE_EQ(a.communication_us, 20);
  EXPECT_DOUBLE_EQ(a.overlap_us, 40);
  EXPECT_DOUBLE_EQ(a.memcpy_us, 10);
  EXPECT_DOUBLE_EQ(a.gpu_busy_us, 140);
  EXPECT_DOUBLE_EQ(a.idle_us, 60);
  EXPECT_DOUBLE_EQ(a.idle_host_us, 55);
  EXPECT_DOUBLE_EQ(a.idle_other_us, 0);
  EXPECT_DOUBLE_EQ(a.idle_kernel_us, 5);
  const GpuTimeBreakdown& b = r0.summary.steps[1];
  EXPECT_DOUBLE_EQ(b.span_us, 190);
  EXPECT_DOUBLE_EQ(b.computation_us, 124.984375);
  EXPECT_DOUBLE_EQ(b.communication_us, 40);
  EXPECT_DOUBLE_EQ(b.overlap_us, 20);
  EXPECT_DOUBLE_EQ(b.gpu_busy_us, 164.984375);
  EXPECT_DOUBLE_EQ(b.idle_us, 25.015625);
  EXPECT_DOUBLE_EQ(b.idle_host_us, 25);
  EXPECT_DOUBLE_EQ(b.idle_kernel_us, 0.015625);
  EXPECT_DOUBLE_EQ(r0.summary.total.span_us, 420);
  EXPECT_DOUBLE_EQ(r0.summary.total.gpu_busy_us, 304.984375);
  EXPECT_DOUBLE_EQ(r0.summary.total.idle_us, 115.015625);
  EXPECT_DOUBLE_EQ(r0.summary.total.idle_host_us, 110);
  EXPECT_DOUBLE_EQ(r0.summary.total.idle_kernel_us, 5.015625);
  EXPECT_DOUBLE_EQ(r0.summary.total.idle_other_us, 0);

  // rank 1, step 1 [12, 215): gemm [45,175), nccl [150,190): C 130, overlap 25, comm 15, busy 145,
  // idle 58 all the host's. Step 2 [215, 402): gemm [235,330), nccl [320,385): C 95, overlap 10,
  // comm 55, busy 150, idle 37.
  const RankSummary& r1 = s.ranks[1];
  EXPECT_EQ(r1.rank, 1);
  ASSERT_EQ(r1.summary.steps.size(), 2u);
  EXPECT_DOUBLE_EQ(r1.summary.steps[0].computation_us, 130);
  EXPECT_DOUBLE_EQ(r1.summary.steps[0].communication_us, 15);
  EXPECT_DOUBLE_EQ(r1.summary.steps[0].overlap_us, 25);
  EXPECT_DOUBLE_EQ(r1.summary.steps[0].idle_host_us, 58);
  EXPECT_DOUBLE_EQ(r1.summary.steps[1].computation_us, 95);
  EXPECT_DOUBLE_EQ(r1.summary.steps[1].communication_us, 55);
  EXPECT_DOUBLE_EQ(r1.summary.steps[1].idle_us, 37);

  // Stragglers: work = computation + memcpy. Step 1: rank 0 120, rank 1 130 -> rank 1 (+10);
  // step 2: rank 0 124.984375, rank 1 95 -> rank 0 (+29.984375).
  ASSERT_EQ(s.stragglers.size(), 2u);
  EXPECT_EQ(s.stragglers[0].step, 1);
  EXPECT_EQ(s.stragglers[0].slowest_rank, 1);
  EXPECT_DOUBLE_EQ(s.stragglers[0].spread_us, 10);
  EXPECT_DOUBLE_EQ(s.stragglers[0].ranks[0].work_us, 120);
  EXPECT_EQ(s.stragglers[1].slowest_rank, 0);
  EXPECT_DOUBLE_EQ(s.stragglers[1].spread_us, 29.984375);
}

TEST(TraceSummaryReport, JsonHasTheDocumentedKeys) {
  const nlohmann::json j = run_summary_json(ddp());
  ASSERT_EQ(j.at("ranks").size(), 2u);
  const auto& r = j.at("ranks")[0];
  EXPECT_EQ(r.at("rank").get<int>(), 0);
  EXPECT_EQ(r.at("file").get<std::string>(), kDdp + "/rank0.pt.trace.json");
  for (const char* key : {"step", "span_us", "gpu_busy_us", "computation_us", "communication_us",
                          "memcpy_us", "idle_us", "overlap_us"}) {
    EXPECT_TRUE(r.at("steps")[0].contains(key)) << key;
    EXPECT_TRUE(r.at("total").contains(key)) << key;
  }
  EXPECT_EQ(r.at("steps")[0].at("step").get<int>(), 1);
  EXPECT_TRUE(r.at("total").at("step").is_null());
  EXPECT_DOUBLE_EQ(r.at("total").at("gpu_busy_us").get<double>(), 304.984375);
  // HTA's window: the first operation starts at 40, the last ends at 395.
  EXPECT_DOUBLE_EQ(r.at("gpu_first_us").get<double>(), 40);
  EXPECT_DOUBLE_EQ(r.at("gpu_last_us").get<double>(), 395);
  EXPECT_EQ(r.at("unmatched").get<int>(), 0);
  EXPECT_EQ(j.at("stragglers")[0].at("slowest_rank").get<int>(), 1);
}

TEST(TraceSummaryReport, TextNamesEveryRankAndTheSlowest) {
  const std::string text = run_summary_text(ddp());
  EXPECT_NE(text.find("rank 0  " + kDdp + "/rank0.pt.trace.json  (8 GPU operations)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("stragglers"), std::string::npos);
  EXPECT_NE(text.find("launches: 8 found"), std::string::npos) << text;
}

// The memory and counter tables only for a trace that has [memory] or counter events; the JSON
// has both for every rank (figures: tests/core/trace/trace_memory_test.cpp, the same trace).
TEST(TraceSummaryReport, MemoryOnlyWhenTheTraceHasIt) {
  const RunSummary ddp_run = ddp();
  const std::string plain = run_summary_text(ddp_run);
  EXPECT_EQ(plain.find("memory (bytes"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("counters"), std::string::npos) << plain;
  const nlohmann::json j = run_summary_json(ddp_run);
  EXPECT_EQ(j.at("ranks")[0].at("memory").at("events").get<int>(), 0);
  EXPECT_TRUE(j.at("ranks")[0].at("counters").empty());

  auto s = summarize_trace_files(
      {std::string(SLIMPACK_SOURCE_DIR) + "/tests/cli/inputs/memory.trace.json"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const std::string text = run_summary_text(*s);
  EXPECT_NE(text.find("memory (bytes, from 10 [memory] events)\n  warning: 1 [memory] event "
                      "skipped"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  total    cuda:0"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU memory / allocated"), std::string::npos) << text;
  const nlohmann::json m = run_summary_json(*s).at("ranks")[0].at("memory");
  EXPECT_EQ(m.at("devices")[1].at("steps")[1].at("peak_allocated").get<std::int64_t>(), 4000);
  EXPECT_EQ(m.at("devices")[1].at("steps")[1].at("step").get<int>(), 2);
  EXPECT_TRUE(m.at("devices")[0].at("total").at("peak_reserved").is_null());
}

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(TraceSummaryReport, NoGpuOperationIsAnErrorNotZeros) {
  const std::string cpu = write_temp(
      "slimpack_summary_cpu_only.json",
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
          "ts": 0, "dur": 5}]})");
  auto s = summarize_trace_files({cpu});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            cpu +
                ": no GPU operation (no complete event of category kernel, gpu_memcpy or "
                "gpu_memset): the GPU time cannot be split");

  // Among ranks that have some, the rank without says so and keeps no figures.
  auto mixed = summarize_trace_files({kDdp + "/rank0.pt.trace.json", cpu});
  ASSERT_TRUE(mixed.ok()) << mixed.error().message;
  ASSERT_EQ(mixed->ranks.size(), 2u);
  const RankSummary& none = mixed->ranks[1];
  EXPECT_FALSE(none.no_gpu.empty());
  const nlohmann::json j = run_summary_json(*mixed);
  EXPECT_TRUE(j.at("ranks")[1].at("total").is_null());
  EXPECT_TRUE(j.at("ranks")[1].at("steps").empty());
  EXPECT_NE(j.at("ranks")[1].at("error").get<std::string>().find("no GPU operation"),
            std::string::npos);
  EXPECT_NE(run_summary_text(*mixed).find("no GPU operation"), std::string::npos);
  EXPECT_TRUE(mixed->stragglers.empty());  // one rank with steps: nothing to line up
  std::remove(cpu.c_str());
}

TEST(TraceSummaryReport, UnreadableFileIsLeftOutWhenAsked) {
  const std::string bad = kDdp + "/nope.json";
  // By default the run is the bad file's error.
  auto strict = summarize_trace_files({kDdp + "/rank1.pt.trace.json", bad});
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.error().message.find("nope.json"), std::string::npos);
  // Taken apart: the other file is summarised (rank 1 by its distributedInfo), the error kept.
  std::vector<Error> unreadable;
  auto s = summarize_trace_files({bad, kDdp + "/rank1.pt.trace.json"}, {}, CancelToken::none(),
                                 ProgressSink::none(), TaskPool::serial(), &unreadable);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->ranks.size(), 1u);
  EXPECT_EQ(s->ranks[0].rank, 1);
  ASSERT_EQ(unreadable.size(), 1u);
  EXPECT_EQ(unreadable[0].message.rfind(bad + ": cannot open", 0), 0u) << unreadable[0].message;
  // No file readable: the first file's error, nothing left out.
  unreadable.clear();
  auto none = summarize_trace_files({bad, bad + "2"}, {}, CancelToken::none(), ProgressSink::none(),
                                    TaskPool::serial(), &unreadable);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message.rfind(bad + ": cannot open", 0), 0u);
  EXPECT_TRUE(unreadable.empty());
}

TEST(TraceSummaryReport, RepeatedStepIsLabelledAndNoted) {
  // ProfilerStep#1 twice, around step 2: two rows of their own, never one merged window.
  const std::string path = write_temp("slimpack_summary_repeated.json",
                                      R"({"traceEvents": [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 10, "dur": 20},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 210, "dur": 50}]})");
  auto s = summarize_trace_files({path});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const std::string text = run_summary_text(*s);
  EXPECT_NE(text.find("\n  #1 (1)   "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  #1 (2)   "), std::string::npos) << text;
  EXPECT_NE(text.find("note: ProfilerStep#1 more than once: each occurrence is a step of its own"),
            std::string::npos)
      << text;
  const nlohmann::json j = run_summary_json(*s);
  const auto& steps = j.at("ranks")[0].at("steps");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].at("occurrence").get<int>(), 1);
  EXPECT_DOUBLE_EQ(steps[0].at("gpu_busy_us").get<double>(), 20);
  EXPECT_EQ(steps[1].at("occurrence").get<int>(), 2);
  EXPECT_DOUBLE_EQ(steps[1].at("gpu_busy_us").get<double>(), 50);
  EXPECT_FALSE(steps[2].contains("occurrence"));  // step 2 occurs once
  EXPECT_EQ(j.at("ranks")[0].at("repeated_steps"), nlohmann::json::array({1}));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace slimpack
