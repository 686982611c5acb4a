#include "render/gantt_model.h"

#include <gtest/gtest.h>

#include "gantt_fixture.h"

namespace slimpack {
namespace {

using testing::synthetic_plan;
using testing::tiny_plan;

TEST(GanttModel, LanesBarsAndExtentOfTheTinyPlan) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  ASSERT_EQ(m.lane_count(), 2);
  EXPECT_EQ(m.stages(), 2);
  EXPECT_EQ(m.replicas(), 1);
  EXPECT_EQ(m.bar_count(), 8u);
  EXPECT_EQ(m.time_extent(), (TimeRange{0.0, 15.0}));
  EXPECT_EQ(m.time_unit(), "units");
  const auto& l0 = m.lane(0).bars;
  ASSERT_EQ(l0.size(), 4u);
  EXPECT_EQ(l0[2].kind, BarKind::Backward);
  EXPECT_DOUBLE_EQ(l0[2].start, 9.0);
  EXPECT_EQ(m.lane(0).fwd_prefix, (std::vector<std::int32_t>{0, 1, 2, 2, 2}));
  EXPECT_EQ(m.lane(1).max_end, (std::vector<double>{4, 6, 9, 12}));
  EXPECT_DOUBLE_EQ(m.peak_memory(), 200.0);
  EXPECT_DOUBLE_EQ(m.lane(0).bubble_ratio, 1.0 / 3.0);
}

TEST(GanttModel, P2PSendsAreNotBarsAndBarsAreSortedByStart) {
  auto pr = tiny_plan();
  auto& ops = pr.result.replicas[0].stages[0].ops;
  ops.push_back(testing::make_op(2, 2.5, 0, 0, OpKind::P2P));
  std::swap(ops[0], ops[3]);  // unsorted input
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(m.bar_count(), 8u);
  const auto& bars = m.lane(0).bars;
  for (std::size_t i = 1; i < bars.size(); ++i) EXPECT_LE(bars[i - 1].start, bars[i].start);
}

TEST(GanttModel, VisibleRangeIsTheIntersectingBars) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  // Lane 0 bars: [0,2) [2,4) [9,12) [12,15).
  EXPECT_EQ(m.visible(0, 5, 8), (std::pair<std::size_t, std::size_t>{2, 2}));
  EXPECT_EQ(m.visible(0, 3, 10), (std::pair<std::size_t, std::size_t>{1, 3}));
  EXPECT_EQ(m.visible(0, -5, 100), (std::pair<std::size_t, std::size_t>{0, 4}));
  EXPECT_EQ(m.visible(0, 20, 30), (std::pair<std::size_t, std::size_t>{4, 4}));
}

TEST(GanttModel, HitTestByBinarySearchWithTolerance) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(m.hit(0, 1.0), 0);
  EXPECT_EQ(m.hit(0, 2.5), 1);
  EXPECT_EQ(m.hit(0, 14.9), 3);
  EXPECT_FALSE(m.hit(0, 6.0).has_value());  // inside the bubble
  EXPECT_FALSE(m.hit(0, 6.0, 1.9).has_value());
  EXPECT_EQ(m.hit(0, 6.0, 3.1), 1);  // 2 after F2's end is nearer than 3 before B1
  EXPECT_EQ(m.hit(0, 8.5, 1.0), 2);  // 0.5 before B1
  EXPECT_FALSE(m.hit(5, 1.0).has_value());
  EXPECT_FALSE(m.hit(-1, 1.0).has_value());
}

TEST(GanttModel, PackContentsAndSequenceIndex) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(m.tokens({0, 0}), 250);          // F1 = A[0,150) + B[0,100)
  ASSERT_EQ(m.segments({1, 2}).size(), 2u);  // B1 on stage 1 = {C, A[150,300)}
  EXPECT_EQ(m.segments({1, 2})[1].begin, 150);
  // Longest sequence of the pack first: A (300) before C (200).
  EXPECT_EQ(m.pack_sequences({0, 2}), (std::vector<SeqIndex>{0, 2}));
  EXPECT_EQ(m.pack_sequences({0, 0}), (std::vector<SeqIndex>{0, 1}));
  // C is in F2 and B1 on both stages.
  const auto c = m.sequence_bars(2);
  EXPECT_EQ(std::vector<BarRef>(c.begin(), c.end()),
            (std::vector<BarRef>{{0, 1}, {0, 2}, {1, 1}, {1, 2}}));
  EXPECT_EQ(m.sequence_bars(0).size(), 8u);  // A is in every pack
  EXPECT_EQ(m.sequence_bars(1).size(), 4u);  // B in F1 and B2
  EXPECT_TRUE(m.sequence_bars(-1).empty());
  EXPECT_TRUE(m.sequence_bars(3).empty());
}

TEST(GanttModel, MemoryStepSeries) {
  const auto pr = tiny_plan();
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_DOUBLE_EQ(m.memory_at(0, -1.0), 0.0);
  EXPECT_DOUBLE_EQ(m.memory_at(0, 0.0), 100.0);
  EXPECT_DOUBLE_EQ(m.memory_at(0, 3.0), 200.0);
  EXPECT_DOUBLE_EQ(m.memory_at(0, 12.0), 100.0);
  EXPECT_DOUBLE_EQ(m.memory_at(1, 12.0), 0.0);
}

TEST(GanttModel, ReplicasAreLaneGroups) {
  const auto pr = synthetic_plan(4, 8, 2);
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(m.lane_count(), 8);
  EXPECT_EQ(m.bar_count(), 2u * 4u * 8u * 2u);
  EXPECT_EQ(m.lane_index(1, 2), 6);
  EXPECT_EQ(m.lane(6).replica, 1);
  EXPECT_EQ(m.lane(6).stage, 2);
  // Each sequence is one forward and one backward pack on every stage of its replica... and the
  // synthetic plan repeats the same packs on both replicas, so 2 * 4 * 2 bars.
  EXPECT_EQ(m.sequence_bars(5).size(), 16u);
  // Stage 0 of a 1F1B pipeline starts at 0 and the last stage's first forward waits for 3 hops.
  EXPECT_DOUBLE_EQ(m.lane(3).bars.front().start, 3.0);  // F1 takes 1.0 per stage
}

}  // namespace
}  // namespace slimpack
