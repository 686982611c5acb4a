// The shortcuts that keep the SlimPack heuristic fast must not change what it chooses:
// - a candidate is estimated from its layouts without a Plan; the estimate, memory fill and w
//   equal those of the plan materialize() builds, bit for bit;
// - a symmetric shape whose forward packs equal an earlier shape's is that shape's twin (same
// plan);
// - symmetric_backward_order() is the order make_symmetric_backward() copies the packs in;
// - build_sliced() + add_sliced_backward() + the legality gate is solve_sliced()'s plan, and its
//   estimate before the backward packs exist is the same;
// - SimOptions::memory_peaks = false changes no time.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "solver/plan_gate.h"
#include "solver/sliced_build.h"
#include "solver/slimpack/candidate.h"
#include "solver/slimpack/estimate.h"
#include "solver/symmetric_backward.h"
#include "solver_test_util.h"
#include "workload/lengths.h"

namespace slimpack::solver_detail {
namespace {

Batch long_tail_batch(Tokens tokens) {
  auto pool = preset_pool("short-heavy-tail", 7, 20000);
  EXPECT_TRUE(pool.ok());
  auto batch = sample_batch(*pool, {tokens, 0, 3});
  EXPECT_TRUE(batch.ok());
  return *batch;
}

// Recompute auto and a 60 GB cap, so that the memory estimate (recompute layers, fill) matters.
CostModel tight_cost(int pp, int dp) {
  ParallelConfig par;
  par.pp = pp;
  par.dp = dp;
  par.tp = 8;
  CostOptions opt;
  opt.recompute = {RecomputeMode::Auto, 0};
  opt.short_query_tokens = kScenarioShortQueryTokens;
  opt.memory_cap_bytes = 60e9;
  return CostModel(*model_preset("llama-3-8b"), *gpu_preset("h100-sxm"), par, opt);
}

// What the solver sets up before phase 2 (slimpack.cpp, steps 1 and 2), for slice size S.
struct SolverSetup {
  SolveInput in;
  Limits lim;
  TimeLines lines;
  sp::Phase1 p1;
  std::vector<std::vector<sp::Item>> items;
  sp::EstimateScratch scratch;
  sp::BuildContext ctx;

  SolverSetup(const Batch& batch, const CostModel& cost, Tokens slice)
      : in{batch, &cost, {}}, lim(limits_of(cost)), lines(time_lines(cost)) {
    std::vector<double> work(batch.sequences.size());
    for (std::size_t i = 0; i < work.size(); ++i) {
      const Tokens n = batch.sequences[i].length;
      work[i] = lines.fwd.work(static_cast<double>(n), pairs_of(0, n)) +
                lines.bwd.work(static_cast<double>(n), pairs_of(0, n));
    }
    sp::Phase1Options opt;
    opt.dp_merge = false;  // forward packs shared between kinds, as at 4M tokens
    p1 = sp::run_phase1(batch, work, lim, cost.parallel().dp, opt);
    for (int r = 0; r < cost.parallel().dp; ++r)
      items.push_back(sp::make_items(batch, p1, r, slice, cost, lines));
    ctx.input = &in;
    ctx.phase1 = &p1;
    ctx.limits = &lim;
    ctx.lines = &lines;
    ctx.scratch = &scratch;
  }
};

sp::Shape shape_of(Tokens slice, int mf, double share, int stages) {
  return sp::Shape{slice, mf, mf, 0, share, ScheduleKind::OneFOneB, stages};
}

void expect_estimate_of_its_plan(const sp::BuildContext& ctx, const sp::Candidate& cand) {
  sp::Candidate built = cand;
  sp::materialize(ctx, built);
  ASSERT_TRUE(built.planned);
  const sp::MemoryEstimate memory = sp::estimate_memory(built.plan, *ctx.limits);
  EXPECT_EQ(built.plan.warmup_extra, cand.shape.w) << cand.label;
  EXPECT_EQ(memory.worst_fill, cand.memory_fill) << cand.label;
  EXPECT_EQ(sp::estimate_plan(built.plan, *ctx.limits, memory.recompute), cand.estimate)
      << cand.label;
  EXPECT_GT(cand.estimate, 0.0);
  test::expect_valid_plan(built.plan, *ctx.limits->cost);
}

TEST(CandidateEstimate, EqualsTheEstimateOfTheMaterializedPlanForEveryKind) {
  const Batch batch = long_tail_batch(Tokens{1} << 20);
  const CostModel cost = tight_cost(4, 2);
  SolverSetup s(batch, cost, 2048);
  int built = 0;
  for (int mf : {8, 24}) {
    std::vector<sp::Layout> forward;
    for (sp::BackwardKind kind :
         {sp::BackwardKind::Symmetric, sp::BackwardKind::Asymmetric, sp::BackwardKind::Drain}) {
      std::string why;
      auto cand =
          sp::build_candidate(s.ctx, s.items, shape_of(2048, mf, 1.0, 4), kind, &forward, &why);
      ASSERT_TRUE(cand.has_value()) << why;
      ++built;
      EXPECT_FALSE(cand->planned);  // no plan until the selection simulates it
      expect_estimate_of_its_plan(s.ctx, *cand);
    }
  }
  EXPECT_EQ(built, 6);  // two pack counts, three kinds each
}

TEST(CandidateEstimate, AnEqualForwardLayoutMakesATwinWithTheSamePlan) {
  // Short sequences only: the long share has nothing to cap, so both shares give the same packs.
  std::vector<Tokens> lengths;
  for (int i = 0; i < 64; ++i) lengths.push_back(512 + 97 * (i % 13));
  const Batch batch = test::batch_of(lengths);
  const CostModel cost = tight_cost(2, 1);
  SolverSetup s(batch, cost, 4096);
  std::vector<sp::Layout> fa, fb;
  std::string why;
  auto root = sp::build_candidate(s.ctx, s.items, shape_of(4096, 6, 1.0, 2),
                                  sp::BackwardKind::Symmetric, &fa, &why);
  ASSERT_TRUE(root.has_value()) << why;
  auto twin = sp::build_candidate(s.ctx, s.items, shape_of(4096, 6, 0.3, 2),
                                  sp::BackwardKind::Symmetric, &fb, &why, &*root, 7);
  ASSERT_TRUE(twin.has_value()) << why;
  EXPECT_EQ(twin->twin, 7);
  EXPECT_EQ(twin->estimate, root->estimate);
  EXPECT_EQ(twin->label, root->label);
  sp::materialize(s.ctx, *root);
  sp::materialize(s.ctx, *twin);
  ASSERT_EQ(root->plan.replicas.size(), twin->plan.replicas.size());
  for (std::size_t r = 0; r < root->plan.replicas.size(); ++r) {
    const ReplicaPlan& a = root->plan.replicas[r];
    const ReplicaPlan& b = twin->plan.replicas[r];
    ASSERT_EQ(a.forward.size(), b.forward.size());
    ASSERT_EQ(a.backward.size(), b.backward.size());
    for (std::size_t k = 0; k < a.forward.size(); ++k)
      EXPECT_EQ(a.forward[k].segments, b.forward[k].segments);
    for (std::size_t k = 0; k < a.backward.size(); ++k)
      EXPECT_EQ(a.backward[k].segments, b.backward[k].segments);
  }
  EXPECT_EQ(root->plan.warmup_extra, twin->plan.warmup_extra);

  // Another Mf gives other packs: no twin, its own estimate.
  std::vector<sp::Layout> fc;
  auto other = sp::build_candidate(s.ctx, s.items, shape_of(4096, 5, 1.0, 2),
                                   sp::BackwardKind::Symmetric, &fc, &why, &*root, 7);
  ASSERT_TRUE(other.has_value()) << why;
  EXPECT_EQ(other->twin, -1);
  expect_estimate_of_its_plan(s.ctx, *other);
}

// places_longs_alike() lets a shape reuse another share's forward packs: whenever it says so, a
// fresh build gives exactly those packs. Four 5000-token sequences among 200 short ones: a share
// near 1 leaves room for their slices where share 1 put them, a small one does not.
TEST(CandidateEstimate, LongsPlacedAlikeMeansTheSameForwardPacks) {
  std::vector<Tokens> lengths(4, 5000);
  for (int i = 0; i < 200; ++i) lengths.push_back(1000 + 37 * (i % 29));
  const Batch batch = test::batch_of(lengths);
  const CostModel cost = tight_cost(2, 1);
  SolverSetup s(batch, cost, 2048);
  int alike = 0, different = 0;
  for (int mf : {8, 16, 32}) {
    const sp::Shape base = shape_of(2048, mf, 1.0, 2);
    const sp::Pins pins = sp::make_pins(s.items, s.p1, base, 0);
    sp::Layout built;
    sp::build_forward(s.items[0], pins, base, 0, built);
    for (double share : {0.99, 0.95, 0.9, 0.6, 0.4, 0.25, 0.1, 0.02}) {
      const sp::Shape other = shape_of(2048, mf, share, 2);
      sp::Layout fresh;
      sp::build_forward(s.items[0], pins, other, 0, fresh);
      if (sp::places_longs_alike(s.items[0], pins, other, 0, built)) {
        ++alike;
        EXPECT_TRUE(fresh.fpack == built.fpack) << "Mf=" << mf << " share=" << share;
        EXPECT_EQ(fresh.fload, built.fload);
        EXPECT_EQ(fresh.ftok, built.ftok);
      } else {
        different += fresh.fpack == built.fpack ? 0 : 1;
      }
    }
  }
  EXPECT_GT(alike, 0);
  EXPECT_GT(different, 0);
}

TEST(CandidateEstimate, SymmetricOrderIsTheOrderOfTheCopiedBackwardPacks) {
  const Batch batch = long_tail_batch(Tokens{1} << 20);
  const CostModel cost = tight_cost(4, 2);
  SolveInput in{batch, &cost, {}};
  in.params.slice_size = 4096;
  auto sliced = solve("sliced", in);
  ASSERT_TRUE(sliced.ok()) << sliced.error().message;
  const Plan& plan = sliced->plan;
  std::vector<std::vector<int>> order;
  EXPECT_EQ(symmetric_backward_order(plan, false, order), plan.warmup_extra);
  EXPECT_GT(plan.warmup_extra, 0);  // some sequence spans packs: the order is not the identity
  ASSERT_EQ(order.size(), plan.replicas.size());
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    const ReplicaPlan& rp = plan.replicas[r];
    ASSERT_EQ(order[r].size(), rp.backward.size());
    for (std::size_t b = 0; b < rp.backward.size(); ++b)
      EXPECT_EQ(rp.backward[b].segments,
                rp.forward[static_cast<std::size_t>(order[r][b])].segments);
  }
}

TEST(CandidateEstimate, BuildSlicedWithTheGateIsSolveSliced) {
  const Batch batch = long_tail_batch(Tokens{1} << 20);
  const CostModel cost = tight_cost(4, 2);
  SolveInput in{batch, &cost, {}};
  in.params.slice_size = 2048;
  auto sliced = solve("sliced", in);
  ASSERT_TRUE(sliced.ok()) << sliced.error().message;
  const Limits lim = limits_of(cost);
  const TimeLines lines = time_lines(cost);
  auto built = build_sliced(in, lim, lines, sliced_assignment(in, lines), 2048, CancelToken::none(),
                            ProgressSink::none());
  ASSERT_TRUE(built.ok());
  // Estimated before its backward packs exist (as slimpack's selection does): the same numbers.
  sp::PlanFigures early;
  sp::fill_plan_figures(built->plan, cost, &built->order, early);
  const double early_estimate =
      sp::estimate_plan(early, lim, sp::estimate_memory(early, lim).recompute);
  add_sliced_backward(*built);
  EXPECT_EQ(early_estimate, sp::estimate_plan(built->plan, lim));
  EXPECT_EQ(early_estimate, sp::estimate_plan(sliced->plan, lim));
  ASSERT_TRUE(gate_legality(built->plan, lim).ok());
  EXPECT_EQ(built->plan.recompute_layers, sliced->plan.recompute_layers);
  EXPECT_EQ(built->plan.warmup_extra, sliced->plan.warmup_extra);
  ASSERT_EQ(built->plan.replicas.size(), sliced->plan.replicas.size());
  for (std::size_t r = 0; r < built->plan.replicas.size(); ++r) {
    const ReplicaPlan& a = built->plan.replicas[r];
    const ReplicaPlan& b = sliced->plan.replicas[r];
    ASSERT_EQ(a.forward.size(), b.forward.size());
    for (std::size_t k = 0; k < a.forward.size(); ++k)
      EXPECT_EQ(a.forward[k].segments, b.forward[k].segments);
    ASSERT_EQ(a.backward.size(), b.backward.size());
    for (std::size_t k = 0; k < a.backward.size(); ++k)
      EXPECT_EQ(a.backward[k].segments, b.backward[k].segments);
  }
  EXPECT_EQ(sliced_notes(*built, 2048), sliced->stats.notes);
}

TEST(CandidateEstimate, SimulationWithoutMemoryPeaksHasTheSameTimes) {
  const Batch batch = long_tail_batch(Tokens{1} << 20);
  const CostModel cost = tight_cost(4, 2);
  auto plan = solve("slimpack", SolveInput{batch, &cost, {}});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  SimOptions with, without;
  without.memory_peaks = false;
  auto a = simulate(plan->plan, &cost, with);
  auto b = simulate(plan->plan, &cost, without);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->iteration_time, b->iteration_time);
  EXPECT_EQ(a->makespan, b->makespan);
  EXPECT_EQ(a->bubble_ratio, b->bubble_ratio);
  EXPECT_GT(a->peak_memory_bytes, 0.0);
  EXPECT_EQ(b->peak_memory_bytes, 0.0);  // not computed
}

}  // namespace
}  // namespace slimpack::solver_detail
