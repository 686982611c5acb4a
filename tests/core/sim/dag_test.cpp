// Asymmetric plans, warm-up, replicas, errors and deadlocks.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "sim_test_plans.h"

namespace slimpack {
namespace {

SimOptions checked() {
  SimOptions o;
  o.check_legality = true;
  return o;
}

SimOptions unchecked() {
  SimOptions o;
  o.check_legality = false;
  return o;
}

// Hand-worked (p = 2, w = 1, both stages issue F1 F2 B1 B2 B3):
//   stage 0: F1 [0,1] F2 [1,3]                 B1 [7,9] B2 [9,11] B3 [11,12]
//   stage 1:     F1 [1,2] F2 [3,5] B1 [5,7] B2 [7,9] B3 [9,10]
TEST(SimDag, AsymmetricPacksHandWorked) {
  auto res = simulate(test::asymmetric_plan(), nullptr, checked());
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_DOUBLE_EQ(res->makespan, 12.0);
  EXPECT_DOUBLE_EQ(res->bubble_ratio, 1.0 / 3.0);
  const auto& st = res->replicas[0].stages;
  EXPECT_DOUBLE_EQ(st[0].busy, 8.0);
  EXPECT_DOUBLE_EQ(st[1].busy, 8.0);
  const double s0[] = {0, 1, 7, 9, 11};
  const double s1[] = {1, 3, 5, 7, 9};
  for (int i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(st[0].ops[static_cast<std::size_t>(i)].start, s0[i]) << i;
    EXPECT_DOUBLE_EQ(st[1].ops[static_cast<std::size_t>(i)].start, s1[i]) << i;
  }
  EXPECT_EQ(st[0].ops[2].kind, OpKind::Backward);
  EXPECT_EQ(st[0].ops[2].pack, 0);
  EXPECT_EQ(res->replicas[0].tokens, 6);
}

// B1 holds the last slice of "long", forwarded in F2: with F2 made slow on the last stage, B1
// waits for it there.
TEST(SimDag, BackwardWaitsForForwardHoldingItsTokens) {
  Plan plan = test::asymmetric_plan();
  plan.replicas[0].forward[1].stage_times = {2.0, 6.0};  // F2 slower on the last stage
  auto res = simulate(plan, nullptr, checked());
  ASSERT_TRUE(res.ok()) << res.error().message;
  const auto& s1 = res->replicas[0].stages[1].ops;
  // F2 on stage 1 runs [3, 9]; B1 (long's last slice) starts at 9.
  EXPECT_DOUBLE_EQ(s1[1].start, 3.0);
  EXPECT_DOUBLE_EQ(s1[2].start, 9.0);
  EXPECT_DOUBLE_EQ(res->replicas[0].stages[1].busy, 1.0 + 6.0 + 5.0);
}

TEST(SimDag, WarmupExtraChangesOrderButConservesBusy) {
  for (int w = 0; w <= 3; ++w) {
    SCOPED_TRACE(w);
    auto res =
        simulate(test::uniform_plan(4, 8, 1.0, 2.0, ScheduleKind::OneFOneB, w), nullptr, checked());
    ASSERT_TRUE(res.ok()) << res.error().message;
    for (const StageResult& st : res->replicas[0].stages) EXPECT_DOUBLE_EQ(st.busy, 24.0);
    EXPECT_GE(res->makespan, 33.0);
    // Stage 0 issues min(M, p - 1 + w) + 1 forwards before its first backward.
    const auto& ops = res->replicas[0].stages[0].ops;
    const std::size_t first_b = static_cast<std::size_t>(std::min(8, 3 + w + 1));
    EXPECT_EQ(ops[first_b].kind, OpKind::Backward);
    EXPECT_EQ(ops[first_b - 1].kind, OpKind::Forward);
  }
}

TEST(SimDag, ReplicasAverageBubbleAndTakeMaxTime) {
  // Replica 0: p = 2, M = 2 -> 9 units, bubble 1/3; replica 1: M = 4 -> 15 units, bubble 1/5.
  Plan plan = test::uniform_plan(2, 6, 1.0, 2.0);
  ReplicaPlan r0, r1;
  for (int m = 0; m < 6; ++m) {
    auto& dst = m < 2 ? r0 : r1;
    dst.forward.push_back(plan.replicas[0].forward[static_cast<std::size_t>(m)]);
    dst.backward.push_back(plan.replicas[0].backward[static_cast<std::size_t>(m)]);
  }
  plan.replicas = {r0, r1};
  auto res = simulate(plan, nullptr, checked());
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_DOUBLE_EQ(res->replicas[0].makespan, 9.0);
  EXPECT_DOUBLE_EQ(res->replicas[1].makespan, 15.0);
  EXPECT_DOUBLE_EQ(res->makespan, 15.0);
  EXPECT_DOUBLE_EQ(res->iteration_time, 15.0);  // no DP sync without a cost model
  EXPECT_DOUBLE_EQ(res->bubble_ratio, (1.0 / 3.0 + 1.0 / 5.0) / 2.0);
}

TEST(SimDag, StageTimesAndKeepOpsOff) {
  Plan plan = test::uniform_plan(2, 3, 1.0, 2.0);
  for (auto& p : plan.replicas[0].forward) p.stage_times = {1.0, 3.0};
  SimOptions o = checked();
  o.keep_ops = false;
  auto res = simulate(plan, nullptr, o);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_DOUBLE_EQ(res->replicas[0].stages[0].busy, 9.0);
  EXPECT_DOUBLE_EQ(res->replicas[0].stages[1].busy, 15.0);
  EXPECT_TRUE(res->replicas[0].stages[0].ops.empty());
  EXPECT_TRUE(res->replicas[0].stages[0].comm.empty());
  // Stage 1 is the bottleneck: F1 arrives at 1, then it runs 15 units back to back; stage 0 ends
  // with B3 right after stage 1's B3: 1 + 15 + 2.
  EXPECT_DOUBLE_EQ(res->makespan, 18.0);
}

TEST(SimDag, MissingTimeWithoutCostModelNamesPack) {
  Plan plan = test::uniform_plan(2, 3, 1.0, 2.0);
  plan.replicas[0].forward[1].time.reset();
  auto res = simulate(plan, nullptr, unchecked());
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().kind, ErrorKind::BadInput);
  EXPECT_NE(res.error().message.find("forward pack F2:"), std::string::npos) << res.error().message;
}

TEST(SimDag, BadStageTimesCountIsBadInput) {
  Plan plan = test::uniform_plan(2, 1, 1.0, 2.0);
  plan.replicas[0].backward[0].stage_times = {1.0, 2.0, 3.0};
  auto res = simulate(plan, nullptr, unchecked());
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().kind, ErrorKind::BadInput);
  EXPECT_NE(res.error().message.find("B1"), std::string::npos) << res.error().message;
}

// The critical path's tie rule: among predecessors ending last together, the first slot wins,
// and the stream comes before the message. GPipe, p = 2, two packs, all times 1, P2P free:
//   stage 0: F1 [0,1] F2 [1,2]
//   stage 1:          F1 [1,2] F2 [2,3]
// Stage 1's F2 waits for its stream (F1@stage1) and for F2's activations (F2@stage0), both ending
// at 2: the path goes through F1@stage1, never through F2@stage0.
TEST(SimDag, CriticalPathTieGoesToTheStream) {
  auto res = simulate(test::uniform_plan(2, 2, 1.0, 1.0, ScheduleKind::GPipe), nullptr, checked());
  ASSERT_TRUE(res.ok()) << res.error().message;
  const std::vector<TimedOp>& path = res->replicas[0].critical_path.ops;
  auto is = [](const TimedOp& op, OpKind kind, int stage, int pack) {
    return op.kind == kind && op.stage == stage && op.pack == pack;
  };
  std::size_t f2 = path.size();
  for (std::size_t i = 0; i < path.size(); ++i) {
    EXPECT_FALSE(is(path[i], OpKind::Forward, 0, 1)) << "the path took the message in a tie";
    if (is(path[i], OpKind::Forward, 1, 1)) f2 = i;
  }
  ASSERT_LT(f2, path.size());
  ASSERT_GT(f2, 0u);
  EXPECT_TRUE(is(path[f2 - 1], OpKind::Forward, 1, 0));
  EXPECT_DOUBLE_EQ(path[f2].start, 2.0);
  EXPECT_DOUBLE_EQ(res->replicas[0].critical_path.idle, 0.0);
}

// B1 on the last stage needs "y", forwarded in F2, which stage 1 issues only after B1 (w = 0).
Plan impossible_plan() {
  Plan plan;
  plan.stages = 2;
  plan.sequences = {{"x", 4}, {"y", 4}};
  ReplicaPlan rp;
  rp.forward = {test::make_pack({{0, 0, 4}}, 1.0), test::make_pack({{1, 0, 4}}, 1.0)};
  rp.backward = {test::make_pack({{1, 0, 4}}, 2.0), test::make_pack({{0, 0, 4}}, 2.0)};
  plan.replicas.push_back(rp);
  return plan;
}

TEST(SimDag, DeadlockNamesTheCycle) {
  auto res = simulate(impossible_plan(), nullptr, unchecked());
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().kind, ErrorKind::Internal);
  const std::string& msg = res.error().message;
  EXPECT_NE(msg.find("deadlock in replica 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("F2@stage1 waits for B1@stage1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("B1@stage1 waits for F2@stage1"), std::string::npos) << msg;
}

TEST(SimDag, IllegalPlanRejectedWhenChecked) {
  auto res = simulate(impossible_plan(), nullptr, checked());
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().kind, ErrorKind::BadInput);
  EXPECT_NE(res.error().message.find("L3"), std::string::npos) << res.error().message;
}

TEST(SimDag, CancelledTokenStops) {
  CancelToken token;
  token.cancel();
  auto res = simulate(test::uniform_plan(2, 4, 1.0, 2.0), nullptr, unchecked(), token);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().kind, ErrorKind::Cancelled);
}

TEST(SimDag, UncheckedResultSaysSo) {
  auto res = simulate(test::uniform_plan(2, 2, 1.0, 2.0), nullptr, unchecked());
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res->legal);
  EXPECT_EQ(res->legality_message, "not checked");
}

}  // namespace
}  // namespace slimpack
