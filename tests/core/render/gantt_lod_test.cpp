#include "render/gantt_lod.h"

#include <gtest/gtest.h>

#include "gantt_fixture.h"

namespace slimpack {
namespace {

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

}  // namespace
}  // namespace slimpack
