// Hand-computed cases of the baseline strategies (fixed, balanced, sliced) and solve()'s errors.
#include <gtest/gtest.h>

#include <set>

#include "plan/schedule_order.h"
#include "solver_test_util.h"

namespace slimpack {
namespace {

using test::batch_of;
using test::pack_ids;

TEST(Solve, ListsStrategiesAndRejectsUnknownOnes) {
  EXPECT_EQ(strategy_names(),
            (std::vector<std::string>{"fixed", "balanced", "sliced", "slimpack"}));
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({10, 20}), &cost, {}};
  auto r = solve("magic", in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
  EXPECT_NE(r.error().message.find("fixed, balanced, sliced, slimpack"), std::string::npos);
}

// Callers decide by these properties, never by a strategy's name.
TEST(Solve, RegistryGivesEachStrategysProperties) {
  const auto fixed = strategy_info("fixed");
  const auto slimpack = strategy_info("slimpack");
  ASSERT_TRUE(fixed && slimpack);
  EXPECT_TRUE(fixed->is_baseline);
  EXPECT_FALSE(fixed->uses_slices || fixed->searches_candidates);
  EXPECT_TRUE(slimpack->uses_slices && slimpack->has_ablations && slimpack->searches_candidates);
  EXPECT_FALSE(slimpack->is_baseline);
  int baselines = 0;
  for (const auto& name : strategy_names()) baselines += strategy_info(name)->is_baseline ? 1 : 0;
  EXPECT_EQ(baselines, 1);
  EXPECT_FALSE(strategy_info("magic").has_value());
}

TEST(Solve, NeedsACostModelAndValidParams) {
  SolveInput in{batch_of({10}), nullptr, {}};
  auto r = solve("fixed", in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  in.cost = &cost;
  in.params.packs = -1;
  r = solve("balanced", in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("params.packs"), std::string::npos);
  in.params.packs = 0;
  in.params.schedule = ScheduleKind::Interleaved;
  r = solve("sliced", in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
}

TEST(Solve, CancelledTokenReturnsCancelled) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({10, 20, 30}), &cost, {}};
  CancelToken token;
  token.cancel();
  for (const auto& name : strategy_names()) {
    auto r = solve(name, in, token);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error().kind, ErrorKind::Cancelled) << name;
  }
}

// FFD with C = 8 on lengths s0..s5 = 3,5,1,4,2,3. Sorted: s1(5) s3(4) s0(3) s5(3) s4(2) s2(1).
// s1 -> P0 (5); s3 -> P1 (4, P0 would be 9); s0 -> P0 (8); s5 -> P1 (7); s4 -> P2 (P0 full,
// P1 would be 9); s2 -> P1 (8).
TEST(Fixed, FirstFitDecreasingByHand) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({3, 5, 1, 4, 2, 3}), &cost, {}};
  in.params.pack_tokens = 8;
  auto r = solve("fixed", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Plan& plan = r->plan;
  ASSERT_EQ(plan.replicas.size(), 1u);
  const auto& f = plan.replicas[0].forward;
  ASSERT_EQ(f.size(), 3u);
  // The packs are read in a seeded shuffled order (as a packed dataset is): compare as a set.
  std::set<std::vector<std::string>> got;
  for (const Pack& p : f) got.insert(pack_ids(plan, p));
  EXPECT_EQ(got, (std::set<std::vector<std::string>>{{"s0", "s1"}, {"s2", "s3", "s5"}, {"s4"}}));
  EXPECT_EQ(plan.replicas[0].backward.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_EQ(plan.replicas[0].backward[k].segments, f[k].segments);
  EXPECT_EQ(plan.warmup_extra, 0);
  test::expect_valid_plan(plan, cost);
}

TEST(Fixed, GlobalPackingIntoTheContextWindowDealtToReplicas) {
  const CostModel cost = test::linear_cost(2, 2, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({1500, 100, 200, 300}), &cost, {}};
  auto r = solve("fixed", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // C = 2048 (the context window: the power of two above 1500). Global FFD: s0, s3, s2 fill one
  // pack (2000 tokens), s1 opens a second; one pack per replica.
  ASSERT_EQ(r->plan.replicas.size(), 2u);
  std::set<std::vector<std::string>> got;
  for (const auto& rp : r->plan.replicas) {
    ASSERT_EQ(rp.forward.size(), 1u);
    got.insert(pack_ids(r->plan, rp.forward[0]));
  }
  EXPECT_EQ(got, (std::set<std::vector<std::string>>{{"s0", "s2", "s3"}, {"s1"}}));
  test::expect_valid_plan(r->plan, cost);
}

// Greedy min-max with M = 2 on lengths 10, 6, 5, 4.
// Token-only cost: weights 10, 6, 5, 4 -> A{10}, B{6}, B{6,5}=11, A{10,4}=14: A{10,4}, B{6,5}.
// Attention-only cost (pairs n(n+1)/2 = 55, 21, 15, 10): A{55}, B{21}, B{36}, B{46}: A{10},
// B{6,5,4} -- the quadratic term keeps the long sequence alone.
TEST(Balanced, GreedyMinMaxByHand) {
  {
    const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
    SolveInput in{batch_of({10, 6, 5, 4}), &cost, {}};
    in.params.packs = 2;
    auto r = solve("balanced", in);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& f = r->plan.replicas[0].forward;
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(pack_ids(r->plan, f[0]), (std::vector<std::string>{"s0", "s3"}));
    EXPECT_EQ(pack_ids(r->plan, f[1]), (std::vector<std::string>{"s1", "s2"}));
    test::expect_valid_plan(r->plan, cost);
  }
  {
    const CostModel cost = test::linear_cost(2, 1, 0, 1e-6, 0, 2e-6);
    SolveInput in{batch_of({10, 6, 5, 4}), &cost, {}};
    in.params.packs = 2;
    auto r = solve("balanced", in);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& f = r->plan.replicas[0].forward;
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(pack_ids(r->plan, f[0]), (std::vector<std::string>{"s0"}));
    EXPECT_EQ(pack_ids(r->plan, f[1]), (std::vector<std::string>{"s1", "s2", "s3"}));
    EXPECT_EQ(r->plan.replicas[0].backward[1].segments, f[1].segments);
  }
}

TEST(Balanced, PackCountIsClampedToTheSequenceCount) {
  const CostModel cost = test::linear_cost(4, 1, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({10, 6}), &cost, {}};
  in.params.packs = 5;
  auto r = solve("balanced", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->plan.replicas[0].forward.size(), 2u);
  EXPECT_NE(r->stats.notes.find("clamped"), std::string::npos);
}

// S = 4, token-only forward cost, M = 4. Batch s0=4, s1=16 (4 slices), s2=s3=s4=4: 32 tokens,
// 8 per pack. Contiguous: F0 = s0 + s1[0,4), F1 = s1[4,12), F2 = s1[12,16) + s2, F3 = s3 + s4.
// s1 spans F0..F2, so the run [0,2] is replayed backwards: B0 = F2, B1 = F1, B2 = F0, B3 = F3,
// and B0 needs F2 forwarded on the last stage: w = 2.
TEST(Sliced, WarmupOfTheSymmetricOrderByHand) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({4, 16, 4, 4, 4}), &cost, {}};
  in.params.slice_size = 4;
  in.params.packs = 4;
  auto r = solve("sliced", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Plan& plan = r->plan;
  EXPECT_EQ(plan.warmup_extra, 2);
  EXPECT_EQ(plan.slice_size, 4);
  const auto& f = plan.replicas[0].forward;
  const auto& b = plan.replicas[0].backward;
  ASSERT_EQ(f.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(f[0].segments, (std::vector<Segment>{{0, 0, 4}, {1, 0, 4}}));
  EXPECT_EQ(f[1].segments, (std::vector<Segment>{{1, 4, 12}}));
  EXPECT_EQ(f[2].segments, (std::vector<Segment>{{1, 12, 16}, {2, 0, 4}}));
  EXPECT_EQ(f[3].segments, (std::vector<Segment>{{3, 0, 4}, {4, 0, 4}}));
  EXPECT_EQ(b[0].segments, f[2].segments);
  EXPECT_EQ(b[1].segments, f[1].segments);
  EXPECT_EQ(b[2].segments, f[0].segments);
  EXPECT_EQ(b[3].segments, f[3].segments);
  test::expect_valid_plan(plan, cost);
}

TEST(Sliced, NoSpanningSequenceMeansNoWarmup) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  SolveInput in{batch_of({8, 8, 8, 8}), &cost, {}};
  in.params.slice_size = 8;
  in.params.packs = 4;
  auto r = solve("sliced", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->plan.warmup_extra, 0);
  test::expect_valid_plan(r->plan, cost);
}

}  // namespace
}  // namespace slimpack
