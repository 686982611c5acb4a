// SlimPack strategy: beats the baselines on long-tail data, asymmetric packs beat symmetric ones on
// a hand-built case, DP-Merge places outliers that fit no single replica, infeasible batches are
// named.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "solver_test_util.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

using test::batch_of;

double iteration_time(const std::string& strategy, const SolveInput& in) {
  auto r = solve(strategy, in);
  EXPECT_TRUE(r.ok()) << strategy << ": " << r.error().message;
  if (!r) return 0.0;
  test::expect_valid_plan(r->plan, *in.cost);
  auto sim = simulate(r->plan, in.cost);
  EXPECT_TRUE(sim.ok()) << strategy << ": " << sim.error().message;
  return sim ? sim->iteration_time : 0.0;
}

TEST(SlimPack, BeatsTheBaselinesOnALongTailBatch) {
  auto pool = preset_pool("short-heavy-tail", 7, 20000);
  ASSERT_TRUE(pool.ok());
  auto batch = sample_batch(*pool, {Tokens{1} << 21, 0, 3});
  ASSERT_TRUE(batch.ok());
  // As users run it: recompute auto (fixed packs fill the 256K context window and need it).
  ParallelConfig par;
  par.pp = 4;
  par.dp = 2;
  par.tp = 8;
  CostOptions opt;
  opt.recompute = {RecomputeMode::Auto, 0};
  const CostModel cost(*model_preset("llama-3-8b"), *gpu_preset("h100-sxm"), par, opt);
  SolveInput in{*batch, &cost, {}};
  const double fixed = iteration_time("fixed", in);
  const double balanced = iteration_time("balanced", in);
  const double sliced = iteration_time("sliced", in);
  const double slim = iteration_time("slimpack", in);
  EXPECT_LE(slim, sliced);
  EXPECT_LT(slim, fixed);
  EXPECT_LT(slim, balanced);
}

// Forward cost counts tokens only; backward also pays 1e-6 s per causal pair (attention-heavy
// backward, the FlashAttention effect of docs/design.md section 3). Batch: two 1024-token sequences
// (524800 pairs each) and 24 of 256 tokens (32896 pairs each), M = 4 packs, p = 2.
// Forward-balanced packs hold 2048 tokens each: {L, 4 short}, {L, 4 short}, {8 short}, {8 short}.
// Replayed symmetrically, the two packs with a long sequence cost about 0.658 s of backward per
// layer against 0.265 s for the others, so zB is set by them. Built independently, the backward
// packs put each long sequence alone (0.526 s) and spread the 24 short ones over the other two,
// so zB drops by a fifth while the forward side is unchanged: the asymmetric plan is strictly
// faster.
TEST(SlimPack, AsymmetricPacksBeatSymmetricOnesWhenBackwardIsImbalanced) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0.0, 1e-6, 1e-6);
  std::vector<Tokens> lengths{1024, 1024};
  lengths.insert(lengths.end(), 24, 256);
  SolveInput in{batch_of(lengths), &cost, {}};
  in.params.packs = 4;
  const double asym = iteration_time("slimpack", in);
  in.params.asymmetric = false;
  const double sym = iteration_time("slimpack", in);
  EXPECT_LT(asym, sym * 0.95);
}

TEST(SlimPack, DpMergeSplitsASequenceThatFitsNoSingleReplica) {
  // Llama-3-8B, t = 2, p = 4: a sequence 1.3 times the tokens whose activations fit the tightest
  // stage's free memory cannot run on one replica; split over two it needs 0.65 of that.
  const CostModel cost = test::preset_cost(4, 2, 2);
  const MemoryModel mm = cost.memory_model();
  double fit = 1e18;
  for (std::size_t s = 0; s < mm.static_bytes.size(); ++s)
    fit = std::min(fit, (mm.capacity_bytes - mm.static_bytes[s]) / mm.activation_per_token[s]);
  std::vector<Tokens> lengths{static_cast<Tokens>(1.3 * fit)};
  lengths.insert(lengths.end(), 64, 2048);
  SolveInput in{batch_of(lengths), &cost, {}};
  auto r = solve("slimpack", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  test::expect_valid_plan(r->plan, cost);
  int shards = 0;
  for (const auto& rp : r->plan.replicas)
    for (const auto& p : rp.forward)
      for (const auto& s : p.segments)
        if (s.seq == 0) shards = s.shards;
  EXPECT_EQ(shards, 2);
  EXPECT_NE(r->stats.notes.find("s0x2"), std::string::npos) << r->stats.notes;

  in.params.dp_merge = false;
  auto no_merge = solve("slimpack", in);
  ASSERT_FALSE(no_merge.ok());
  EXPECT_EQ(no_merge.error().kind, ErrorKind::Infeasible);
}

TEST(SlimPack, InfeasibleSequenceIsNamedWithItsShortfall) {
  const CostModel cost = test::preset_cost(4, 2, 2);
  SolveInput in{batch_of({1000, 400000, 2000}), &cost, {}};
  for (const auto& name : strategy_names()) {
    auto r = solve(name, in);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error().kind, ErrorKind::Infeasible) << name;
    EXPECT_NE(r.error().message.find("'s1'"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("shortfall"), std::string::npos) << r.error().message;
    // The same as values: the sequence, the stage and bytes over the cap.
    ASSERT_TRUE(r.error().detail.has_value()) << name;
    const InfeasibleDetail& d = *r.error().detail;
    EXPECT_EQ(d.limit, Limit::StageMemory) << name;
    EXPECT_EQ(d.sequence, "s1") << name;
    EXPECT_GE(d.stage, 0) << name;
    EXPECT_LT(d.stage, 4) << name;
    EXPECT_GT(d.needed, d.cap) << name;
    EXPECT_DOUBLE_EQ(d.cap, cost.memory_cap()) << name;
  }
}

TEST(SlimPack, ReportsStatistics) {
  auto pool = preset_pool("long-sft-128k", 5, 5000);
  ASSERT_TRUE(pool.ok());
  auto batch = sample_batch(*pool, {Tokens{1} << 20, 0, 9});
  ASSERT_TRUE(batch.ok());
  const CostModel cost = test::preset_cost(4, 2, 8);
  SolveInput in{*batch, &cost, {}};
  auto r = solve("slimpack", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GE(r->stats.candidates, 2);
  EXPECT_GT(r->stats.objective, 0.0);
  EXPECT_LE(r->stats.bound, r->stats.objective);
  EXPECT_GE(r->stats.gap, 0.0);
  EXPECT_EQ(r->stats.phase_seconds.size(), 4u);
  EXPECT_NE(r->stats.notes.find("chosen"), std::string::npos);
  EXPECT_EQ(r->plan.strategy, "slimpack");
}

TEST(SlimPack, ExactModeNeedsTheMilpBuild) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0.0, 1e-6, 1e-6);
  SolveInput in{batch_of({4096, 1024, 512, 512, 256, 256}), &cost, {}};
  in.params.exact = true;
  in.params.packs = 2;
  in.params.time_limit_s = 1.0;
  auto r = solve("slimpack", in);
#if defined(SLIMPACK_HAVE_MILP)
  ASSERT_TRUE(r.ok()) << r.error().message;
  test::expect_valid_plan(r->plan, cost);
  EXPECT_NE(r->stats.notes.find("exact"), std::string::npos);
#else
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
#endif
}

}  // namespace
}  // namespace slimpack
