// A measured run's units placed in the plan's dependency graph: producers, receives and sends,
// chunks of interleaved plans; and the round trip of our own export, whose bubbles by cause are
// the simulation's.
#include "trace/measured_timeline.h"

#include <gtest/gtest.h>

#include "../sim/sim_test_plans.h"
#include "sim/pipeline_bubbles.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"

namespace slimpack {
namespace {

MeasuredUnit unit(int stage, Pass pass, int pack, double start, double dur) {
  MeasuredUnit u;
  u.stage = stage;
  u.pass = pass;
  u.pack = pack;
  u.start_us = start;
  u.dur_us = dur;
  return u;
}

std::vector<UnitGraph> graphs_of(const Plan& plan) {
  std::vector<UnitGraph> g;
  for (int r = 0; r < plan.dp(); ++r) g.push_back(*unit_graph(plan, r, nullptr));
  return g;
}

const TimelineUnit& find(const PipelineTimeline& t, UnitId id) {
  for (const TimelineUnit& u : t.units)
    if (u.id == id) return u;
  ADD_FAILURE() << "no unit " << unit_label(id) << " on stage " << id.stage;
  return t.units.front();
}

TEST(MeasuredTimeline, ProducersAndReceivesComeFromThePlanAndTheWaitRanges) {
  const Plan plan = test::uniform_plan(2, 2, 1.0, 2.0);
  MappedTrace units, receives;
  units.units = {unit(0, Pass::Forward, 0, 100, 10),  unit(0, Pass::Forward, 1, 110, 10),
                 unit(1, Pass::Forward, 0, 115, 10),  unit(1, Pass::Backward, 0, 125, 20),
                 unit(1, Pass::Forward, 1, 145, 10),  unit(1, Pass::Backward, 1, 155, 20),
                 unit(0, Pass::Backward, 0, 150, 20), unit(0, Pass::Backward, 1, 180, 20)};
  // stage 1 waited for F1 until 115; stage 0 for B2 until 178 (B2 of stage 1 ended at 175).
  receives.units = {unit(1, Pass::Forward, 0, 110, 5), unit(0, Pass::Backward, 1, 170, 8)};
  const PipelineTimeline t = measured_timeline(units, graphs_of(plan), 2, &receives);
  EXPECT_DOUBLE_EQ(t.origin_us, 100.0);
  EXPECT_DOUBLE_EQ(t.end_us, 200.0);
  ASSERT_EQ(t.units.size(), 8u);
  const TimelineUnit& f1s1 = find(t, {1, 0, Pass::Forward, 0});
  ASSERT_GE(f1s1.producer, 0);
  EXPECT_EQ(t.units[static_cast<std::size_t>(f1s1.producer)].id, (UnitId{0, 0, Pass::Forward, 0}));
  EXPECT_EQ(f1s1.received_us, 115.0);
  const TimelineUnit& b2s0 = find(t, {0, 0, Pass::Backward, 1});
  EXPECT_EQ(t.units[static_cast<std::size_t>(b2s0.producer)].id, (UnitId{1, 0, Pass::Backward, 1}));
  EXPECT_EQ(b2s0.received_us, 178.0);
  EXPECT_FALSE(find(t, {1, 0, Pass::Forward, 1}).received_us);  // no wait range
  EXPECT_EQ(find(t, {0, 0, Pass::Forward, 0}).producer, -1);

  // Stage 0 before B1 [120, 150): B1 of stage 1 ran until 145 (dependency 25), no wait range
  // (other 5); before B2 [170, 180): B2 of stage 1 ran until 175 (dependency 5), then arrived
  // at 178 (transfer 3), then 2 more (other).
  const PipelineBubbles b = analyse_bubbles(t);
  EXPECT_DOUBLE_EQ(b.stages[0].cause_us(BubbleCause::Dependency), 25.0 + 5.0);
  EXPECT_DOUBLE_EQ(b.stages[0].cause_us(BubbleCause::Transfer), 3.0);
  EXPECT_DOUBLE_EQ(b.stages[0].cause_us(BubbleCause::Other), 5.0 + 2.0);
}

TEST(MeasuredTimeline, SendsOfTheProducerGiveTheArrival) {
  const Plan plan = test::uniform_plan(2, 1, 1.0, 2.0);
  MappedTrace units, sends;
  units.units = {unit(0, Pass::Forward, 0, 0, 10), unit(1, Pass::Forward, 0, 14, 10),
                 unit(1, Pass::Backward, 0, 24, 10), unit(0, Pass::Backward, 0, 40, 10)};
  sends.units = {unit(0, Pass::Forward, 0, 10, 3), unit(1, Pass::Backward, 0, 34, 4)};
  const PipelineTimeline t = measured_timeline(units, graphs_of(plan), 2, nullptr, &sends);
  EXPECT_EQ(find(t, {1, 0, Pass::Forward, 0}).received_us, 13.0);
  EXPECT_EQ(find(t, {0, 0, Pass::Backward, 0}).received_us, 38.0);
}

// Interleaved (2 chunks): a pack's two forwards on a stage are chunks 0 then 1, its two
// backwards chunks 1 then 0.
TEST(MeasuredTimeline, EventsOfOnePackSplitIntoChunksInRunOrder) {
  const Plan plan = test::uniform_plan(2, 2, 1.0, 2.0, ScheduleKind::Interleaved, 0, 2);
  MappedTrace units;
  units.units = {unit(0, Pass::Forward, 0, 0, 1), unit(0, Pass::Forward, 0, 5, 1),
                 unit(0, Pass::Backward, 0, 20, 1), unit(0, Pass::Backward, 0, 30, 1)};
  const PipelineTimeline t = measured_timeline(units, graphs_of(plan), 2);
  EXPECT_DOUBLE_EQ(find(t, {0, 0, Pass::Forward, 0}).start_us, 0.0);
  EXPECT_DOUBLE_EQ(find(t, {0, 1, Pass::Forward, 0}).start_us, 5.0);
  EXPECT_DOUBLE_EQ(find(t, {0, 1, Pass::Backward, 0}).start_us, 20.0);
  EXPECT_DOUBLE_EQ(find(t, {0, 0, Pass::Backward, 0}).start_us, 30.0);
}

// Our export of a simulation, mapped back with its sends, has the simulation's bubbles.
void expect_round_trip(const Plan& plan) {
  auto sim = simulate(plan, nullptr, {});
  ASSERT_TRUE(sim) << sim.error().message;
  auto trace = import_chrome_trace_text(chrome_trace_json(plan, *sim), "export.json");
  ASSERT_TRUE(trace) << trace.error().message;
  const LaneMapping lanes = default_lane_mapping(*trace);
  auto units = map_trace_units(*trace, lanes, *builtin_unit_rules("slimpack"));
  ASSERT_TRUE(units) << units.error().message;
  auto sends = map_trace_units(*trace, lanes, send_rules());
  ASSERT_TRUE(sends) << sends.error().message;
  const auto graphs = graphs_of(plan);
  const PipelineBubbles measured =
      analyse_bubbles(measured_timeline(*units, graphs, plan.stages, nullptr, &*sends));
  const PipelineBubbles simulated =
      analyse_bubbles(simulated_timeline(*sim, graphs, trace_us_per_unit(*sim)));
  EXPECT_NEAR(measured.makespan_us, simulated.makespan_us, 1e-6);
  ASSERT_EQ(measured.stages.size(), simulated.stages.size());
  for (std::size_t s = 0; s < measured.stages.size(); ++s) {
    EXPECT_NEAR(measured.stages[s].busy_us, simulated.stages[s].busy_us, 1e-6);
    for (std::size_t c = 0; c < kBubbleCauses; ++c)
      EXPECT_NEAR(measured.stages[s].by_cause[c], simulated.stages[s].by_cause[c], 1e-6)
          << "stage " << s << " " << bubble_cause_name(static_cast<BubbleCause>(c));
  }
  EXPECT_EQ(measured.critical_path.size(), simulated.critical_path.size());
  EXPECT_EQ(measured.receives_known, measured.messages);
}

TEST(MeasuredTimeline, OurExportRoundTripsToTheSimulatedBubbles) {
  expect_round_trip(test::uniform_plan(4, 8, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.25));
  expect_round_trip(test::uniform_plan(3, 6, 1.0, 2.0, ScheduleKind::GPipe, 0, 1, 0.5));
  expect_round_trip(test::uniform_plan(2, 4, 1.0, 2.0, ScheduleKind::Interleaved, 0, 2, 0.1));
  expect_round_trip(test::asymmetric_plan());
}

}  // namespace
}  // namespace slimpack
