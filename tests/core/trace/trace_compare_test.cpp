// trace compare over two hand-written traces whose deltas are computed by hand in the comments.
#include <gtest/gtest.h>

#include <map>

#include "compare_helpers.h"
#include "trace/trace_compare.h"
#include "trace/trace_import.h"

namespace slimpack {
namespace {

ImportedTrace load(const char* name) {
  auto t = import_chrome_trace(std::string(SLIMPACK_SAMPLES_DIR) + "/traces/" + name);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return t.ok() ? *t : ImportedTrace{};
}

using test::by_name;
using test::compared;

TEST(TraceCompare, ExactNamesHandComputed) {
  const TraceComparison c = compared(load("step_before.json"), load("step_after.json"));
  // Complete events only: X and the matched B/E "forward"; the instant and the counter do not
  // count. "events" is every element of the event array, as `trace info` counts it.
  EXPECT_EQ(c.a.counted, 6);  // ProfilerStep#1, forward, 2x aten::linear, flash_fwd, nccl
  EXPECT_EQ(c.b.counted, 7);  // ProfilerStep#2, forward, 3x aten::linear, flash_fwd, flash_bwd
  EXPECT_EQ(c.a.events, 12);  // + 3 metadata, the E, the instant and the counter
  EXPECT_EQ(c.b.events, 11);
  EXPECT_DOUBLE_EQ(c.a.total_us, 1000 + 500 + 100 + 200 + 300);
  EXPECT_DOUBLE_EQ(c.b.total_us, 900 + 450 + 102 + 260 + 120);
  ASSERT_EQ(c.names.size(), 7u);
  // Largest |delta| first.
  const char* order[] = {"ProfilerStep#1", "ProfilerStep#2", "ncclKernel_AllReduce", "flash_bwd",
                         "flash_fwd",      "forward",        "aten::linear"};
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(c.names[i].name, order[i]) << i;

  auto m = by_name(c);
  EXPECT_EQ(m["ProfilerStep#1"].status, NameDiffStatus::Removed);
  EXPECT_DOUBLE_EQ(m["ProfilerStep#1"].delta_us, -1000);
  EXPECT_EQ(m["ProfilerStep#2"].status, NameDiffStatus::Added);
  EXPECT_EQ(m["ncclKernel_AllReduce"].status, NameDiffStatus::Removed);
  EXPECT_EQ(m["flash_bwd"].status, NameDiffStatus::Added);
  EXPECT_EQ(m["flash_fwd"].status, NameDiffStatus::Longer);
  EXPECT_DOUBLE_EQ(m["flash_fwd"].delta_us, 60);
  EXPECT_EQ(m["forward"].status, NameDiffStatus::Shorter);  // 500 -> 450, 10 % > 5 %
  EXPECT_DOUBLE_EQ(m["forward"].delta_us, -50);
  // 100 -> 102 us is within the 5 % tolerance, though the count went from 2 to 3.
  EXPECT_EQ(m["aten::linear"].status, NameDiffStatus::Unchanged);
  EXPECT_EQ(m["aten::linear"].count_a, 2);
  EXPECT_EQ(m["aten::linear"].count_b, 3);
  EXPECT_DOUBLE_EQ(m["aten::linear"].delta_us, 2);
}

TEST(TraceCompare, ToleranceZeroMakesEveryChangeCount) {
  TraceCompareOptions o;
  o.tolerance = 0.0;
  auto m = by_name(compared(load("step_before.json"), load("step_after.json"), o));
  EXPECT_EQ(m["aten::linear"].status, NameDiffStatus::Longer);
}

TEST(TraceCompare, FoldDigitsJoinsProfilerSteps) {
  TraceCompareOptions o;
  o.fold_digits = true;
  auto m = by_name(compared(load("step_before.json"), load("step_after.json"), o));
  ASSERT_EQ(m.count("ProfilerStep#N"), 1u);
  EXPECT_EQ(m.count("ProfilerStep#1"), 0u);
  const NameDiff& step = m["ProfilerStep#N"];
  EXPECT_EQ(step.count_a, 1);
  EXPECT_EQ(step.count_b, 1);
  EXPECT_DOUBLE_EQ(step.delta_us, -100);
  EXPECT_EQ(step.status, NameDiffStatus::Shorter);
}

TEST(TraceCompare, CategoryFilter) {
  TraceCompareOptions o;
  o.category = "kernel";
  const TraceComparison c = compared(load("step_before.json"), load("step_after.json"), o);
  EXPECT_EQ(c.a.counted, 2);
  EXPECT_EQ(c.b.counted, 2);
  auto m = by_name(c);
  EXPECT_EQ(m.size(), 3u);  // flash_fwd, flash_bwd, ncclKernel_AllReduce
  EXPECT_EQ(m.count("aten::linear"), 0u);
}

TEST(TraceCompare, SameTraceIsUnchangedEverywhere) {
  const ImportedTrace t = load("kineto_small.json");
  TraceCompareOptions o;
  o.tolerance = 0.0;
  const TraceComparison c = compared(t, t, o);
  ASSERT_FALSE(c.names.empty());
  for (const NameDiff& d : c.names) {
    EXPECT_EQ(d.status, NameDiffStatus::Unchanged) << d.name;
    EXPECT_EQ(d.count_a, d.count_b);
    EXPECT_DOUBLE_EQ(d.delta_us, 0.0);
  }
}

// "events" means one thing: every element of the event array, as `trace info` counts it (with
// events not kept); the complete events compared are "counted".
TEST(TraceCompare, EventsMeanWhatTraceInfoCounts) {
  TraceImportOptions counts_only;
  counts_only.keep_events = false;
  auto info = import_chrome_trace(std::string(SLIMPACK_SAMPLES_DIR) + "/traces/kineto_small.json",
                                  counts_only);
  ASSERT_TRUE(info.ok());
  const ImportedTrace t = load("kineto_small.json");
  const TraceComparison c = compared(t, t);
  EXPECT_EQ(c.a.events, info->events);
  EXPECT_EQ(c.a.events, 30);
  std::int64_t complete = 0;
  for (const TraceLane& l : info->lanes) complete += l.count;
  EXPECT_EQ(c.a.counted, complete);
  EXPECT_EQ(c.a.counted, 13);
}

TEST(TraceCompare, FoldDigits) {
  EXPECT_EQ(fold_digits("ProfilerStep#12"), "ProfilerStep#N");
  EXPECT_EQ(fold_digits("sm90_gemm_128x256"), "smN_gemm_NxN");
  EXPECT_EQ(fold_digits("aten::mm"), "aten::mm");
  EXPECT_EQ(fold_digits("42"), "N");
  EXPECT_EQ(fold_digits(""), "");
}

}  // namespace
}  // namespace slimpack
