// Bubbles by cause on timelines built by hand, every figure worked out below; and on the
// simulator's own timelines, where busy + idle is the makespan on every stage and nothing is
// "other" (a simulated stage only ever waits for a message).
#include "sim/pipeline_bubbles.h"

#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "sim/unit_graph.h"
#include "sim_test_plans.h"

namespace slimpack {
namespace {

constexpr double kTol = 1e-9;

UnitId F(int stage, int pack) {
  return {stage, 0, Pass::Forward, pack};
}
UnitId B(int stage, int pack) {
  return {stage, 0, Pass::Backward, pack};
}

struct HandTimeline {
  PipelineTimeline t;
  std::int32_t add(UnitId id, double start, double end, std::int32_t producer = -1,
                   std::optional<double> received = std::nullopt) {
    const auto i = static_cast<std::int32_t>(t.units.size());
    TimelineUnit u;
    u.id = id;
    u.start_us = start;
    u.end_us = end;
    u.producer = producer;
    u.received_us = received;
    t.units.push_back(u);
    t.busy.push_back({0, id.stage, start, end, i});
    return i;
  }
};

// Two stages, 1F1B over two micro-batches (stage 0: F1 F2 B1 B2; stage 1: F1 B1 F2 B2):
//   stage 0: F1 [0,10)  F2 [10,30) (slow: stage 1's F2 waits for it)  B1 [33,43)  B2 [70,80)
//   stage 1: F1 [12,22)  B1 [22,27)  F2 [32,42)  B2 [42,62)
// messages: F1 arrives at 12, F2 at 32 (2 after its producer), B1 at 29, B2 at 70 (a slow link:
// 8 after its producer ended at 62). Window [0, 80).
//   stage 0: busy 50; before B1 [30,33): B1's gradients were there at 29: other 3; before B2
//            [43,70): B2 of stage 1 runs until 62: dependency 19, then in flight: transfer 8.
//   stage 1: busy 45; fill [0,12) = 12 before its first unit; before F2 [27,32): F2 of stage 0
//            runs until 30: dependency 3, transfer 2; drain [62,80) = 18: fill 30 in all.
struct OneFOneB : HandTimeline {
  std::int32_t f1s0, f2s0, b1s0, b2s0, f1s1, b1s1, f2s1, b2s1;
  OneFOneB(bool receives = true) {
    t.stages = 2;
    t.origin_us = 0.0;
    t.end_us = 80.0;
    auto r = [&](double v) { return receives ? std::optional<double>(v) : std::nullopt; };
    f1s0 = add(F(0, 0), 0, 10);
    f2s0 = add(F(0, 1), 10, 30);
    f1s1 = add(F(1, 0), 12, 22, f1s0, r(12));
    b1s1 = add(B(1, 0), 22, 27);
    f2s1 = add(F(1, 1), 32, 42, f2s0, r(32));
    b2s1 = add(B(1, 1), 42, 62);
    b1s0 = add(B(0, 0), 33, 43, b1s1, r(29));
    b2s0 = add(B(0, 1), 70, 80, b2s1, r(70));
  }
};

double cause(const StageBubbles& s, BubbleCause c) {
  return s.cause_us(c);
}

TEST(PipelineBubbles, LateProducerSlowLinkFillAndDrainByHand) {
  const OneFOneB h;
  const PipelineBubbles b = analyse_bubbles(h.t);
  EXPECT_DOUBLE_EQ(b.makespan_us, 80.0);
  ASSERT_EQ(b.stages.size(), 2u);
  const StageBubbles& s0 = b.stages[0];
  EXPECT_DOUBLE_EQ(s0.busy_us, 50.0);
  EXPECT_DOUBLE_EQ(cause(s0, BubbleCause::Dependency), 19.0);
  EXPECT_DOUBLE_EQ(cause(s0, BubbleCause::Transfer), 8.0);
  EXPECT_DOUBLE_EQ(cause(s0, BubbleCause::Fill), 0.0);
  EXPECT_DOUBLE_EQ(cause(s0, BubbleCause::Other), 3.0);
  EXPECT_DOUBLE_EQ(s0.idle_us, 30.0);
  const StageBubbles& s1 = b.stages[1];
  EXPECT_DOUBLE_EQ(s1.busy_us, 45.0);
  EXPECT_DOUBLE_EQ(cause(s1, BubbleCause::Dependency), 3.0);
  EXPECT_DOUBLE_EQ(cause(s1, BubbleCause::Transfer), 2.0);
  EXPECT_DOUBLE_EQ(cause(s1, BubbleCause::Fill), 30.0);
  EXPECT_DOUBLE_EQ(cause(s1, BubbleCause::Other), 0.0);
  // The waits name the unit and its producer.
  ASSERT_EQ(s0.waits.size(), 3u);
  EXPECT_EQ(s0.waits[1].cause, BubbleCause::Dependency);
  EXPECT_EQ(s0.waits[1].unit, h.b2s0);
  EXPECT_EQ(s0.waits[1].producer, h.b2s1);
  EXPECT_DOUBLE_EQ(s0.waits[1].start_us, 43.0);
  EXPECT_DOUBLE_EQ(s0.waits[1].end_us, 62.0);
  ASSERT_EQ(s1.waits.size(), 4u);
  EXPECT_EQ(s1.waits.front().cause, BubbleCause::Fill);
  EXPECT_EQ(s1.waits.front().unit, h.f1s1);
  EXPECT_EQ(s1.waits.back().unit, -1);  // the drain
  EXPECT_DOUBLE_EQ(s1.waits.back().duration_us(), 18.0);
  EXPECT_EQ(b.messages, 4);
  EXPECT_EQ(b.receives_known, 4);
}

TEST(PipelineBubbles, CriticalPathFollowsTheLatestReadyPredecessor) {
  const OneFOneB h;
  const PipelineBubbles b = analyse_bubbles(h.t);
  // B2@s0 <- (message B2, ready 70 > B1@s0's 43) B2@s1 <- F2@s1 (no message: last stage's
  // backward) <- (message F2, ready 32 > B1@s1's 27) F2@s0 <- F1@s0.
  const auto& p = b.critical_path;
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[0].unit, h.f1s0);
  EXPECT_EQ(p[1].unit, h.f2s0);
  EXPECT_TRUE(p[2].message);
  EXPECT_EQ(p[2].from, h.f2s0);
  EXPECT_EQ(p[2].unit, h.f2s1);
  EXPECT_DOUBLE_EQ(p[2].start_us, 30.0);
  EXPECT_DOUBLE_EQ(p[2].end_us, 32.0);
  EXPECT_EQ(p[3].unit, h.f2s1);
  EXPECT_EQ(p[4].unit, h.b2s1);
  EXPECT_TRUE(p[5].message);
  EXPECT_DOUBLE_EQ(p[5].end_us - p[5].start_us, 8.0);
  EXPECT_EQ(p[6].unit, h.b2s0);
}

TEST(PipelineBubbles, WithoutReceivesTheWaitAfterTheProducerIsOther) {
  const PipelineBubbles b = analyse_bubbles(OneFOneB(false).t);
  EXPECT_DOUBLE_EQ(cause(b.stages[0], BubbleCause::Dependency), 19.0);
  EXPECT_DOUBLE_EQ(cause(b.stages[0], BubbleCause::Transfer), 0.0);
  EXPECT_DOUBLE_EQ(cause(b.stages[0], BubbleCause::Other), 11.0);
  EXPECT_DOUBLE_EQ(cause(b.stages[1], BubbleCause::Other), 2.0);
  EXPECT_EQ(b.receives_known, 0);
}

// Overlapping intervals count once, the window's origin shifts every time, and a stage with no
// unit is fill over the whole window.
TEST(PipelineBubbles, UnionOfIntervalsOriginAndAnEmptyStage) {
  HandTimeline h;
  h.t.stages = 2;
  h.t.origin_us = 1000.0;
  h.t.end_us = 1100.0;
  const auto u = h.add(F(0, 0), 1010, 1050);
  h.t.busy.push_back({0, 0, 1040, 1060, u});  // a second event of the unit, overlapping
  h.add(F(0, 1), 1070, 1100);
  const PipelineBubbles b = analyse_bubbles(h.t);
  EXPECT_DOUBLE_EQ(b.makespan_us, 100.0);
  EXPECT_DOUBLE_EQ(b.stages[0].busy_us, 80.0);  // [10,60) + [70,100)
  EXPECT_DOUBLE_EQ(cause(b.stages[0], BubbleCause::Fill), 10.0);
  EXPECT_DOUBLE_EQ(cause(b.stages[0], BubbleCause::Other), 10.0);
  EXPECT_DOUBLE_EQ(b.units[0].start_us, 10.0);
  EXPECT_DOUBLE_EQ(b.stages[1].busy_us, 0.0);
  EXPECT_DOUBLE_EQ(cause(b.stages[1], BubbleCause::Fill), 100.0);
}

void expect_adds_up(const PipelineBubbles& b) {
  for (const StageBubbles& s : b.stages) {
    double idle = 0.0;
    for (const double v : s.by_cause) idle += v;
    EXPECT_NEAR(s.busy_us + idle, b.makespan_us, 1e-6 * std::max(1.0, b.makespan_us))
        << "stage " << s.stage;
    EXPECT_NEAR(s.idle_us, idle, 1e-6 * std::max(1.0, b.makespan_us));
  }
}

PipelineBubbles simulated_bubbles(const Plan& plan) {
  auto sim = simulate(plan, nullptr);
  EXPECT_TRUE(sim) << sim.error().message;
  std::vector<UnitGraph> graphs;
  for (int r = 0; r < plan.dp(); ++r) graphs.push_back(*unit_graph(plan, r, nullptr));
  return analyse_bubbles(simulated_timeline(*sim, graphs, 1.0));
}

TEST(PipelineBubbles, SimulatedTimelinesAddUpAndWaitOnlyForMessages) {
  const std::vector<Plan> plans = {
      test::uniform_plan(4, 8, 1.0, 2.0),
      test::uniform_plan(4, 8, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.25),
      test::uniform_plan(3, 6, 1.0, 2.0, ScheduleKind::GPipe, 0, 1, 0.5),
      test::uniform_plan(2, 4, 1.0, 2.0, ScheduleKind::Interleaved, 0, 2, 0.1),
      test::asymmetric_plan()};
  for (const Plan& plan : plans) {
    const PipelineBubbles b = simulated_bubbles(plan);
    expect_adds_up(b);
    for (const StageBubbles& s : b.stages) EXPECT_NEAR(s.cause_us(BubbleCause::Other), 0.0, kTol);
    double path = 0.0;
    for (const PathStep& p : b.critical_path) path += p.end_us - p.start_us;
    EXPECT_NEAR(path, b.makespan_us, 1e-9);  // a simulated path never waits
  }
}

// Uniform 1F1B, p = 2, 2 packs, tf = 1, tb = 2, a link of 0.5: stage 0 runs F1 [0,1) F2 [1,2),
// then B1 after stage 1's B1: stage 1 gets F1 at 1.5, runs F1 [1.5,2.5) B1 [2.5,4.5), F2 (there
// at 2.5) [4.5,5.5), B2 [5.5,7.5); stage 0's B1 arrives 5.0: [5,7), B2 arrives 8.0: [8,10).
TEST(PipelineBubbles, SimulatedOneFOneBByHand) {
  const PipelineBubbles b =
      simulated_bubbles(test::uniform_plan(2, 2, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.5));
  EXPECT_DOUBLE_EQ(b.makespan_us, 10.0);
  const StageBubbles& s0 = b.stages[0];
  EXPECT_DOUBLE_EQ(s0.busy_us, 6.0);
  EXPECT_DOUBLE_EQ(s0.cause_us(BubbleCause::Dependency), 2.5 + 0.5);  // [2,4.5), [7,7.5)
  EXPECT_DOUBLE_EQ(s0.cause_us(BubbleCause::Transfer), 0.5 + 0.5);    // [4.5,5), [7.5,8)
  EXPECT_DOUBLE_EQ(s0.cause_us(BubbleCause::Fill), 0.0);
  const StageBubbles& s1 = b.stages[1];
  EXPECT_DOUBLE_EQ(s1.busy_us, 6.0);
  EXPECT_DOUBLE_EQ(s1.cause_us(BubbleCause::Fill), 1.5 + 2.5);  // before F1, after B2
  EXPECT_DOUBLE_EQ(s1.cause_us(BubbleCause::Dependency), 0.0);
}

TEST(UnitGraph, MessagesFollowTheVirtualStages) {
  const Plan plan = test::uniform_plan(2, 4, 1.0, 2.0, ScheduleKind::Interleaved, 0, 2);
  auto g = unit_graph(plan, 0, nullptr);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(g->vchunks, 2);
  // Forward: s0.c0 -> s1.c0 -> s0.c1 -> s1.c1; backward the other way.
  EXPECT_EQ(g->producer.at(UnitId{1, 0, Pass::Forward, 2}), (UnitId{0, 0, Pass::Forward, 2}));
  EXPECT_EQ(g->producer.at(UnitId{0, 1, Pass::Forward, 2}), (UnitId{1, 0, Pass::Forward, 2}));
  EXPECT_EQ(g->producer.at(UnitId{1, 0, Pass::Backward, 3}), (UnitId{0, 1, Pass::Backward, 3}));
  EXPECT_EQ(g->producer.count(UnitId{0, 0, Pass::Forward, 0}), 0u);
  EXPECT_EQ(g->producer.count(UnitId{1, 1, Pass::Backward, 0}), 0u);
  EXPECT_EQ(g->producer.size(), 3u * 4u * 2u);  // 3 links per pass and pack
}

TEST(UnitGraph, AsymmetricBackwardPacksReceiveTheirOwnGradients) {
  auto g = unit_graph(test::asymmetric_plan(), 0, nullptr);
  ASSERT_TRUE(g) << g.error().message;
  for (int b = 0; b < 3; ++b)
    EXPECT_EQ(g->producer.at(UnitId{0, 0, Pass::Backward, b}), (UnitId{1, 0, Pass::Backward, b}));
  for (int f = 0; f < 2; ++f)
    EXPECT_EQ(g->producer.at(UnitId{1, 0, Pass::Forward, f}), (UnitId{0, 0, Pass::Forward, f}));
  EXPECT_FALSE(unit_graph(test::asymmetric_plan(), 1, nullptr));
}

}  // namespace
}  // namespace slimpack
