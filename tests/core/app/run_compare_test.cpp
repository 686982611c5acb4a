// core/app's diff of two runs (run_compare.h), the call of `slimpack trace compare` and of the
// explorer's diff table: a run of several ranks (samples/traces/ddp, two ranks of one DDP step
// pair) is merged, so each name counts the events of every rank; the folder and its files give
// the same comparison; a run without profiler steps is compared whole only when asked.
#include "app/run_compare.h"

#include <gtest/gtest.h>

#include <map>

#include "trace/trace_import.h"

namespace slimpack {
namespace {

const std::string kDdp = std::string(SLIMPACK_SAMPLES_DIR) + "/traces/ddp";

std::map<std::string, NameDiff> by_name(const TraceComparison& c) {
  std::map<std::string, NameDiff> out;
  for (const NameDiff& d : c.names) out[d.name] = d;
  return out;
}

TEST(RunCompare, ARunOfTwoRanksCountsBothRanks) {
  TraceCompareOptions options;
  auto both = compare_run_files({kDdp}, {kDdp + "/rank1.pt.trace.json"}, options);
  ASSERT_TRUE(both.ok()) << both.error().message;
  auto rank0 =
      compare_run_files({kDdp + "/rank0.pt.trace.json"}, {kDdp + "/rank1.pt.trace.json"}, options);
  ASSERT_TRUE(rank0.ok());
  const auto merged = by_name(both->comparison);
  const auto one = by_name(rank0->comparison);
  // aten::mm runs on both ranks: A counts rank 0's and rank 1's, B rank 1's alone.
  const NameDiff& mm = merged.at("aten::mm");
  EXPECT_EQ(mm.count_a, mm.count_b + one.at("aten::mm").count_a);
  EXPECT_DOUBLE_EQ(mm.total_us_a, mm.total_us_b + one.at("aten::mm").total_us_a);
  // aten::copy_ is only in rank 0's file: in the merged run, not in rank 1.
  EXPECT_EQ(merged.at("aten::copy_").count_a, one.at("aten::copy_").count_a);
  EXPECT_GT(merged.at("aten::copy_").count_a, 0);
  EXPECT_EQ(merged.at("aten::copy_").count_b, 0);
  EXPECT_EQ(both->comparison.a.lanes,
            rank0->comparison.a.lanes + both->comparison.b.lanes);  // every rank's lanes
  EXPECT_EQ(both->comparison.a.source, "rank0.pt.trace.json (+1 ranks)");

  // The folder and its files, comma-separated or in another order, are one run.
  auto files = compare_run_files({kDdp + "/rank1.pt.trace.json", kDdp + "/rank0.pt.trace.json"},
                                 {kDdp + "/rank1.pt.trace.json"}, options);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->comparison.names.size(), both->comparison.names.size());
  EXPECT_DOUBLE_EQ(by_name(files->comparison).at("aten::mm").total_us_a, mm.total_us_a);
}

// Instant events (the trace view's markers) keep their own names when ranks are merged: each
// rank's name indices point into its own table, and the merged trace has one table.
TEST(RunCompare, MergedRanksKeepTheirInstantsNames) {
  auto rank0 = import_chrome_trace_text(
      R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
          {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2}])",
      "r0.json");
  auto rank1 = import_chrome_trace_text(
      R"([{"ph": "i", "name": "Iteration Start", "pid": 1, "tid": 1, "ts": 1},
          {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}])",
      "r1.json");
  ASSERT_TRUE(rank0.ok() && rank1.ok());
  auto merged =
      merge_rank_traces({{std::make_shared<const ImportedTrace>(std::move(*rank0)), 0, "r0.json"},
                         {std::make_shared<const ImportedTrace>(std::move(*rank1)), 1, "r1.json"}});
  ASSERT_TRUE(merged);
  std::vector<std::string> instants;
  for (const TraceLane& lane : merged->lanes)
    for (const TraceEvent& e : lane.instants)
      instants.push_back(merged->names.at(static_cast<std::size_t>(e.name)));
  EXPECT_EQ(instants, (std::vector<std::string>{"[memory]", "Iteration Start"}));
}

TEST(RunCompare, StepsARunLacksAreAnErrorUnlessWholeIsAllowed) {
  TraceRunRequest request;
  request.files = {std::string(SLIMPACK_SAMPLES_DIR) + "/runs/calibrate"};  // no ProfilerStep
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok()) << run.error().message;
  TraceCompareOptions options;
  options.steps = StepRange{};
  const auto ranks = rank_sources(*run);
  auto strict = compare_runs(ranks, ranks, options);
  ASSERT_FALSE(strict.ok());
  auto whole = compare_runs(ranks, ranks, options, /*steps_or_whole=*/true);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_TRUE(whole->whole_trace);
  EXPECT_FALSE(whole->comparison.names.empty());
  for (const NameDiff& d : whole->comparison.names) EXPECT_EQ(d.delta_us, 0.0);
  EXPECT_EQ(whole->categories, (std::vector<std::string>{"user_annotation"}));
}

}  // namespace
}  // namespace slimpack
