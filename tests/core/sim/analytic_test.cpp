// The analytic cases of docs/design.md section 6 reproduced exactly by the DAG simulator.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "sim_test_plans.h"

namespace slimpack {
namespace {

SimResult run(const Plan& plan) {
  SimOptions opts;
  opts.check_legality = true;
  auto res = simulate(plan, nullptr, opts);
  EXPECT_TRUE(res.ok()) << (res.ok() ? "" : res.error().message);
  return res.ok() ? *res : SimResult{};
}

TEST(SimAnalytic, OneFOneBFourStagesEightPacks) {
  const SimResult r = run(test::uniform_plan(4, 8, 1.0, 2.0));
  EXPECT_DOUBLE_EQ(r.makespan, 33.0);
  EXPECT_DOUBLE_EQ(r.iteration_time, 33.0);
  EXPECT_DOUBLE_EQ(r.bubble_ratio, 3.0 / 11.0);
  EXPECT_EQ(r.time_unit, "units");
  EXPECT_TRUE(r.legal);
  ASSERT_EQ(r.replicas.size(), 1u);
  ASSERT_EQ(r.replicas[0].stages.size(), 4u);
  for (const StageResult& st : r.replicas[0].stages) {
    EXPECT_DOUBLE_EQ(st.busy, 24.0);
    EXPECT_DOUBLE_EQ(st.bubble_ratio, 1.0 - 24.0 / 33.0);
    EXPECT_EQ(st.ops.size(), 8u + 8u + 1u);  // F, B and the optimizer step
  }
  // Stage 0 issues B1 after its 3 + 1 warm-up forwards; it starts once F1 went down the p stages
  // and B1 came back through the p-1 others: p tF + (p-1) tB.
  const auto& ops = r.replicas[0].stages[0].ops;
  EXPECT_EQ(ops[4].kind, OpKind::Backward);
  EXPECT_EQ(ops[4].pack, 0);
  EXPECT_DOUBLE_EQ(ops[4].start, 4.0 * 1.0 + 3.0 * 2.0);
  // Tokens per time unit: 8 packs of 8 tokens over 33 units.
  EXPECT_DOUBLE_EQ(r.tokens_per_second, 64.0 / 33.0);
  EXPECT_DOUBLE_EQ(r.mfu, 0.0);
}

struct Case {
  int p;
  int m;
};

class SimAnalyticSweep : public ::testing::TestWithParam<Case> {};

TEST_P(SimAnalyticSweep, OneFOneBAndGPipeMatchFormula) {
  const auto [p, m] = GetParam();
  const double tf = 0.5, tb = 1.25;
  for (ScheduleKind kind : {ScheduleKind::OneFOneB, ScheduleKind::GPipe}) {
    SCOPED_TRACE(schedule_name(kind));
    const SimResult r = run(test::uniform_plan(p, m, tf, tb, kind));
    EXPECT_DOUBLE_EQ(r.makespan, (m + p - 1) * (tf + tb));
    EXPECT_DOUBLE_EQ(r.bubble_ratio, static_cast<double>(p - 1) / (m + p - 1));
    // With zero latency the critical path is all compute and spans the makespan.
    const CriticalPath& cp = r.replicas[0].critical_path;
    EXPECT_DOUBLE_EQ(cp.compute, r.makespan);
    EXPECT_DOUBLE_EQ(cp.comm, 0.0);
    EXPECT_DOUBLE_EQ(cp.idle, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SimAnalyticSweep,
                         ::testing::Values(Case{1, 1}, Case{1, 5}, Case{2, 2}, Case{2, 7},
                                           Case{3, 5}, Case{4, 4}, Case{5, 12}, Case{8, 16},
                                           Case{16, 64}));

TEST(SimAnalytic, GPipeWithFewerPacksThanStages) {
  const SimResult r = run(test::uniform_plan(4, 2, 1.0, 2.0, ScheduleKind::GPipe));
  EXPECT_DOUBLE_EQ(r.makespan, 5.0 * 3.0);
  EXPECT_DOUBLE_EQ(r.bubble_ratio, 3.0 / 5.0);
}

// Interleaved 1F1B with v chunks of tF/v, tB/v: makespan M(tF+tB) + (p-1)(tF+tB)/v, so the bubble
// relative to the ideal M(tF+tB) is (p-1)/(vM).
TEST(SimAnalytic, InterleavedBubbleOverIdeal) {
  for (const auto& [p, v, m] : {std::tuple{4, 2, 8}, std::tuple{2, 2, 4}, std::tuple{4, 4, 8}}) {
    SCOPED_TRACE(testing::Message() << "p=" << p << " v=" << v << " M=" << m);
    const SimResult r = run(test::uniform_plan(p, m, 1.0, 2.0, ScheduleKind::Interleaved, 0, v));
    const double ideal = m * 3.0;
    EXPECT_DOUBLE_EQ(r.makespan, ideal + (p - 1) * 3.0 / v);
    EXPECT_DOUBLE_EQ((r.makespan - ideal) / ideal, static_cast<double>(p - 1) / (v * m));
    for (const StageResult& st : r.replicas[0].stages) {
      EXPECT_DOUBLE_EQ(st.busy, ideal);
      EXPECT_EQ(st.ops.size(), static_cast<std::size_t>(2 * m * v + 1));
    }
  }
}

// GPipe with latency c: the first forward reaches the last stage after (p-1)(tF+c), forwards then
// stream back to back, and gradients pay c on each of the p-1 boundaries on the way back:
// makespan = (M+p-1)(tF+tB) + 2(p-1)c.
TEST(SimAnalytic, GPipeLatencyAddsTwicePerBoundary) {
  const double c = 0.25;
  const SimResult r = run(test::uniform_plan(4, 8, 1.0, 2.0, ScheduleKind::GPipe, 0, 1, c));
  EXPECT_DOUBLE_EQ(r.makespan, 33.0 + 2.0 * 3.0 * c);
  const auto& stages = r.replicas[0].stages;
  EXPECT_EQ(stages[0].comm.size(), 8u);   // activations only
  EXPECT_EQ(stages[1].comm.size(), 16u);  // activations and gradients
  EXPECT_EQ(stages[3].comm.size(), 8u);   // gradients only
  for (const TimedOp& op : stages[1].comm) {
    EXPECT_EQ(op.kind, OpKind::P2P);
    EXPECT_DOUBLE_EQ(op.duration(), c);
  }
  const CriticalPath& cp = r.replicas[0].critical_path;
  EXPECT_DOUBLE_EQ(cp.comm, 2.0 * 3.0 * c);
  EXPECT_DOUBLE_EQ(cp.compute + cp.comm + cp.idle, r.iteration_time);
}

// 1F1B, p = 2, M = 4, tF = 1, tB = 2, latency c = 0.5, worked by hand:
//   stage 1: F1 [1.5,2.5] B1 [2.5,4.5] F2 [4.5,5.5] B2 [5.5,7.5] F3 [8.5,9.5] B3 [9.5,11.5]
//            F4 [11.5,12.5] B4 [12.5,14.5]
//   stage 0: F1 [0,1] F2 [1,2] B1 [5,7] F3 [7,8] B2 [8,10] F4 [10,11] B3 [12,14] B4 [15,17]
// i.e. 15 + 4c: the round trip 2c is paid twice where stage 0 waits for a gradient.
TEST(SimAnalytic, OneFOneBLatencyHandWorked) {
  const SimResult r = run(test::uniform_plan(2, 4, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.5));
  EXPECT_DOUBLE_EQ(r.makespan, 17.0);
  const auto& s0 = r.replicas[0].stages[0].ops;
  const double starts0[] = {0, 1, 5, 7, 8, 10, 12, 15};
  for (int i = 0; i < 8; ++i) EXPECT_DOUBLE_EQ(s0[static_cast<std::size_t>(i)].start, starts0[i]);
  const auto& s1 = r.replicas[0].stages[1].ops;
  const double starts1[] = {1.5, 2.5, 4.5, 5.5, 8.5, 9.5, 11.5, 12.5};
  for (int i = 0; i < 8; ++i) EXPECT_DOUBLE_EQ(s1[static_cast<std::size_t>(i)].start, starts1[i]);
  const CriticalPath& cp = r.replicas[0].critical_path;
  EXPECT_DOUBLE_EQ(cp.compute + cp.comm + cp.idle, 17.0);
  EXPECT_GT(cp.comm, 0.0);
}

}  // namespace
}  // namespace slimpack
