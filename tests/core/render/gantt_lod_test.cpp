#include "render/gantt_lod.h"

#include <gtest/gtest.h>

#include "gantt_fixture.h"

namespace slimpack {
namespace {

using testing::make_op;
using testing::synthetic_plan;
using testing::tiny_plan;

TEST(GanttLod, WideBarsAreDrawnOneByOneAtExactPixels) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  const TimeScale scale({0, 15}, 50, 1500);  // 100 px per unit, plot starts at x = 50
  std::vector<DrawItem> items;
  build_lane_draw_list(m, 0, scale, items);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_FLOAT_EQ(items[1].x0, 250.0f);  // F2 [2,4)
  EXPECT_FLOAT_EQ(items[1].x1, 450.0f);
  EXPECT_EQ(items[2].kind, BarKind::Backward);
  EXPECT_FLOAT_EQ(items[2].x0, 950.0f);  // B1 [9,12)
  for (const auto& d : items) EXPECT_EQ(d.count, 1);
}

TEST(GanttLod, NarrowTouchingBarsFoldButBubblesStay) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  const TimeScale scale({0, 15}, 0, 15);  // 1 px per unit: forwards are 2 px, backwards 3 px
  std::vector<DrawItem> items;
  build_lane_draw_list(m, 0, scale, items);
  // F1 F2 touch and are narrow -> one fold of 2 forwards; the 5 px bubble keeps B1 apart.
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].count, 2);
  EXPECT_EQ(items[0].forward, 2);
  EXPECT_FLOAT_EQ(items[0].x0, 0.0f);
  EXPECT_FLOAT_EQ(items[0].x1, 4.0f);
  EXPECT_EQ(items[1].count, 1);
  EXPECT_FLOAT_EQ(items[1].x0, 9.0f);
  build_lane_draw_list(m, 1, scale, items);
  // Lane 1: F1 F2 fold; B1 (3 px) is wide enough to stand alone although it touches.
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].count, 2);
  EXPECT_FLOAT_EQ(items[1].x0, 6.0f);
}

TEST(GanttLod, GapsOfAtLeastOnePixelSplitFolds) {
  auto pr = tiny_plan();
  auto& ops = pr.result.replicas[0].stages[0].ops;
  // 0.5 px bars: two runs of three separated by a 2 px gap.
  ops = {testing::make_op(0, 0.5, 0, 0, OpKind::Forward),
         testing::make_op(0.5, 1.0, 1, 0, OpKind::Forward),
         testing::make_op(1.0, 1.5, 0, 0, OpKind::Backward),
         testing::make_op(3.5, 4.0, 1, 0, OpKind::Backward),
         testing::make_op(4.0, 4.5, 0, 0, OpKind::Forward),
         testing::make_op(4.5, 5.0, 1, 0, OpKind::Backward)};
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  std::vector<DrawItem> items;
  build_lane_draw_list(m, 0, TimeScale({0, 15}, 0, 15), items);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].count, 3);
  EXPECT_EQ(items[0].forward, 2);
  EXPECT_EQ(items[1].count, 3);
  EXPECT_EQ(items[1].forward, 1);
  EXPECT_FLOAT_EQ(items[1].x0, 3.5f);
  EXPECT_FLOAT_EQ(items[1].x1, 5.0f);
}

TEST(GanttLod, DenseLaneFoldsIntoOneRunThatCountsEveryBar) {
  // One stage: F1 B1 F2 B2 ... back to back, 2000 bars over 100 px.
  const auto pr = synthetic_plan(1, 1000, 1, false);
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  std::vector<DrawItem> items;
  build_lane_draw_list(m, 0, TimeScale(m.time_extent(), 0, 100), items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 2000);
  EXPECT_EQ(items[0].forward, 1000);
  EXPECT_FLOAT_EQ(items[0].x0, 0.0f);
  EXPECT_FLOAT_EQ(items[0].x1, 100.0f);
}

TEST(GanttLod, FoldDensityShowsWhereForwardAndBackwardWorkAndIdleAre) {
  auto pr = tiny_plan();
  auto& ops = pr.result.replicas[0].stages[0].ops;
  // 1 px per second. Column 0: forwards back to back; column 1: a forward half the column, then
  // idle; column 2: a 0.25 s backward, a 0.5 s forward; columns 3-4: one backward of 1.5 s that
  // starts at 3.25 (0.75 s in column 3, 0.75 s carried into column 4); column 5: idle tail of
  // nothing. The sub-pixel gaps keep it one folded run.
  ops = {testing::make_op(0.0, 0.5, 0, 0, OpKind::Forward),
         testing::make_op(0.5, 1.0, 1, 0, OpKind::Forward),
         testing::make_op(1.0, 1.5, 0, 0, OpKind::Forward),
         testing::make_op(2.0, 2.25, 1, 0, OpKind::Backward),
         testing::make_op(2.25, 2.75, 0, 0, OpKind::Forward),
         testing::make_op(3.25, 4.75, 1, 0, OpKind::Backward)};
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  const TimeScale scale({0, 15}, 0, 15);
  std::vector<DrawItem> items;
  LodOptions lod;
  lod.min_bar_px = 2.0;  // the 1.5 s backward folds too
  build_lane_draw_list(m, 0, scale, items, lod);
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].count, 6);
  const std::vector<FoldColumn> cols = fold_density(m, 0, items[0], scale);
  ASSERT_EQ(cols.size(), 5u);  // floor(0) .. ceil(4.75)
  EXPECT_FLOAT_EQ(cols[0].forward, 1.0f);
  EXPECT_FLOAT_EQ(cols[0].backward, 0.0f);
  EXPECT_FLOAT_EQ(cols[1].forward, 0.5f);
  EXPECT_FLOAT_EQ(cols[1].backward, 0.0f);
  EXPECT_FLOAT_EQ(cols[2].forward, 0.5f);
  EXPECT_FLOAT_EQ(cols[2].backward, 0.25f);
  EXPECT_FLOAT_EQ(cols[3].backward, 0.75f);
  EXPECT_FLOAT_EQ(cols[4].backward, 0.75f);
  EXPECT_FLOAT_EQ(cols[4].forward, 0.0f);
  // A single bar has no density; nor has a trace row.
  build_lane_draw_list(m, 0, TimeScale({0, 15}, 0, 1500), items);
  EXPECT_TRUE(fold_density(m, 0, items[0], scale).empty());
}

TEST(GanttLod, FoldDensityOfAWholeViewAddsUpToTheLanesWork) {
  // 1F1B over 4 stages and 3000 packs at 200 px: each stage is folded; the density's forward and
  // backward seconds add up to the stage's forward and backward busy time.
  const auto pr = synthetic_plan(4, 3000, 1, false);
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  const TimeScale scale(m.time_extent(), 0, 200);
  for (int lane = 0; lane < m.lane_count(); ++lane) {
    std::vector<DrawItem> items;
    build_lane_draw_list(m, lane, scale, items);
    double f = 0.0, b = 0.0;
    for (const DrawItem& d : items) {
      if (!d.folded()) continue;
      for (const FoldColumn& c : fold_density(m, lane, d, scale)) {
        EXPECT_LE(c.forward + c.backward, 1.0f + 1e-6f);
        f += c.forward * scale.time_per_px();
        b += c.backward * scale.time_per_px();
      }
    }
    const GanttLane& l = m.lane(lane);
    EXPECT_NEAR(f, l.fwd_time_prefix.back(), 1e-6 * m.time_extent().span());
    EXPECT_NEAR(b, l.bwd_time_prefix.back(), 1e-6 * m.time_extent().span());
  }
}

TEST(GanttLod, InvariantsAtManyZoomLevels) {
  const auto pr = synthetic_plan(4, 3000);
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  const double end = m.time_extent().t1;
  for (double width : {50.0, 333.0, 1920.0, 20000.0}) {
    for (double t0 : {0.0, end / 3}) {
      const TimeScale scale({t0, t0 + (end - t0) / 2}, 10, width);
      for (int lane = 0; lane < m.lane_count(); ++lane) {
        std::vector<DrawItem> items;
        build_lane_draw_list(m, lane, scale, items);
        const auto [first, last] = m.visible(lane, scale.range().t0, scale.range().t1);
        std::size_t covered = 0;
        std::int32_t expect_first = static_cast<std::int32_t>(first);
        for (std::size_t i = 0; i < items.size(); ++i) {
          const DrawItem& d = items[i];
          EXPECT_GE(d.x1 - d.x0, 1.0f);
          EXPECT_EQ(d.first, expect_first);  // runs are contiguous: every bar is in one item
          expect_first += d.count;
          covered += static_cast<std::size_t>(d.count);
          if (i > 0) {
            EXPECT_GE(d.x0, items[i - 1].x0);
          }
        }
        EXPECT_EQ(covered, last - first);
        // Level of detail bounds the work by pixels, not bars.
        EXPECT_LE(items.size(), static_cast<std::size_t>(width) + 2);
      }
    }
  }
}

// Issue 33: a folded stage of 356 backward packs said "357 B": the optimizer step that ends the
// iteration was counted as a backward pack. A run counts packs of each pass; steps are neither.
TEST(GanttLod, FoldedRunCountsNoSyncOrOptimizerStepAsABackwardPack) {
  auto pr = synthetic_plan(1, 356, 1, false);
  auto& ops = pr.result.replicas[0].stages[0].ops;
  const double end = ops.back().end;
  ops.push_back(make_op(end, end + 0.5, -1, 0, OpKind::DpSync));
  ops.push_back(make_op(end + 0.5, end + 1.0, -1, 0, OpKind::Optimizer));
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  std::vector<DrawItem> items;
  build_lane_draw_list(m, 0, TimeScale(m.time_extent(), 0, 100), items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 2 * 356 + 2);
  EXPECT_EQ(items[0].forward, 356);
  EXPECT_EQ(items[0].backward, 356);
  // A run of the steps alone holds no pack.
  build_lane_draw_list(m, 0, TimeScale({end + 1e-6, end + 1.0}, 0, 1), items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 2);
  EXPECT_EQ(items[0].forward + items[0].backward, 0);
}

}  // namespace
}  // namespace slimpack
