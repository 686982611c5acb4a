// The per-stage work lower bound and the gap to it, on the analytic 1F1B case of docs/design.md
// section 6.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "sim_test_plans.h"

namespace slimpack {
namespace {

TEST(SimWorkBound, OneFOneBGapIsTheFillOfTheBusiestStage) {
  // p=4, M=8, tF=1, tB=2: every stage is busy 8 * 3 = 24 of the 33 units.
  auto r = simulate(test::uniform_plan(4, 8, 1.0, 2.0), nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->stage_work_bound, 24.0);
  EXPECT_DOUBLE_EQ(r->gap_to_bound, 1.0 - 24.0 / 33.0);
  // One stage, no pipeline: the schedule meets the bound.
  auto one = simulate(test::uniform_plan(1, 8, 1.0, 2.0), nullptr);
  ASSERT_TRUE(one.ok());
  EXPECT_DOUBLE_EQ(one->stage_work_bound, 24.0);
  EXPECT_DOUBLE_EQ(one->gap_to_bound, 0.0);
}

}  // namespace
}  // namespace slimpack
