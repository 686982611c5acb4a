#include "render/gantt_title.h"

#include <gtest/gtest.h>

#include "common/format.h"
#include "gantt_fixture.h"

namespace slimpack {
namespace {

TEST(GanttTitle, NamesWorkloadShapeSliceStrategyAndIterationTime) {
  GanttTitleFacts f;
  f.workload = "preset long-sft-128k, seed 42";
  f.strategy = "slimpack";
  f.pp = 4;
  f.tp = 8;
  f.dp = 2;
  f.slice_size = 8192;
  f.iteration_time = 9.3141;
  EXPECT_EQ(gantt_title(f),
            "preset long-sft-128k, seed 42 \u2014 slimpack \u00b7 p=4 t=8 d=2 \u00b7 S=8,192 "
            "\u00b7 iteration 9.31 s");
}

// A length file's path is shortened to its name: the title is read on a slide.
TEST(GanttTitle, NamesALengthFileWithoutItsDirectories) {
  GanttTitleFacts f;
  f.workload = "/home/me/data/sft_records.jsonl, seed 3";
  f.pp = 4;
  f.dp = 1;
  EXPECT_EQ(gantt_title(f), "sft_records.jsonl, seed 3 \u00b7 p=4 d=1 \u00b7 no slicing");
}

TEST(GanttTitle, LeavesOutWhatIsUnknown) {
  GanttTitleFacts f;
  f.pp = 2;
  f.dp = 1;
  EXPECT_EQ(gantt_title(f), "p=2 d=1 \u00b7 no slicing");
}

TEST(GanttTitle, FactsComeFromThePlanAndItsResult) {
  auto pr = testing::tiny_plan();
  pr.plan.strategy = "sliced";
  pr.plan.slice_size = 150;
  const GanttTitleFacts f = gantt_title_facts(pr.plan, pr.result, "plan tiny.json", 0);
  EXPECT_EQ(f.pp, 2);
  EXPECT_EQ(f.dp, 1);
  EXPECT_EQ(f.slice_size, 150);
  EXPECT_EQ(f.time_unit, "units");
  EXPECT_EQ(gantt_title(f),
            "plan tiny.json \u2014 sliced \u00b7 p=2 d=1 \u00b7 S=150 \u00b7 "
            "iteration " +
                format_time(pr.result.iteration_time, "units"));
}

}  // namespace
}  // namespace slimpack
