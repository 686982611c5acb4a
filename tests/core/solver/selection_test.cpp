// SlimPack's selection where memory is tight: a plan whenever a legal one exists (checked against
// plans built by hand), and never slower than its own symmetric ablation nor than `sliced`, on the
// configurations of docs/results.md (1M tokens per replica, the CLI's cost options).
#include <gtest/gtest.h>

#include "cost/cost_model.h"
#include "sim/simulator.h"
#include "solver_test_util.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

// The cost model as the CLI configures it (core/app/scenario.cpp): recompute auto, automatic
// stage split weighed with the batch's attention density, TP communication 30% exposed, short
// query blocks priced.
CostModel cli_cost(const std::string& model, int tp, int pp, int dp, const Batch& batch,
                   double cap_bytes = 0.0) {
  ParallelConfig par;
  par.pp = pp;
  par.dp = dp;
  par.tp = tp;
  CostOptions opt;
  opt.recompute = {RecomputeMode::Auto, 0};
  opt.stage_split = StageSplit::Auto;
  opt.tp_comm_exposed = kScenarioTpCommExposed;
  opt.short_query_tokens = kScenarioShortQueryTokens;
  opt.memory_cap_bytes = cap_bytes;
  double tokens = 0.0, pairs = 0.0;
  for (const Sequence& s : batch.sequences) {
    const double n = static_cast<double>(s.length);
    tokens += n;
    pairs += n * (n + 1.0) / 2.0;
  }
  opt.split_pairs_per_token = pairs / tokens;
  return CostModel(model_preset(model).value(), gpu_preset("h100-sxm").value(), par, opt);
}

Batch preset_batch(const std::string& preset, Tokens tokens) {
  auto pool = preset_pool(preset, 42, 65536);
  EXPECT_TRUE(pool.ok());
  auto batch = sample_batch(*pool, {tokens, 0, 42});
  EXPECT_TRUE(batch.ok());
  return *batch;
}

double simulated(const Plan& plan, const CostModel& cost) {
  auto sim = simulate(plan, &cost);
  EXPECT_TRUE(sim.ok()) << sim.error().message;
  return sim.ok() ? sim->iteration_time : 0.0;
}

struct ResultsCase {
  const char* model;
  int tp, pp, dp;
  const char* preset;
};

class NeverSlower : public ::testing::TestWithParam<ResultsCase> {};

TEST_P(NeverSlower, ThanItsSymmetricAblationAndThanSliced) {
  const ResultsCase c = GetParam();
  const Batch batch = preset_batch(c.preset, Tokens{1048576} * c.dp);
  const CostModel cost = cli_cost(c.model, c.tp, c.pp, c.dp, batch);
  SolveInput in{batch, &cost, {}};
  auto slim = solve("slimpack", in);
  ASSERT_TRUE(slim.ok()) << slim.error().message;
  test::expect_valid_plan(slim->plan, cost);
  const double t_slim = simulated(slim->plan, cost);

  SolveInput sym = in;
  sym.params.asymmetric = false;
  auto ablation = solve("slimpack", sym);
  ASSERT_TRUE(ablation.ok()) << ablation.error().message;
  EXPECT_LE(t_slim, simulated(ablation->plan, cost) * (1 + 1e-12));

  auto sliced = solve("sliced", in);
  ASSERT_TRUE(sliced.ok()) << sliced.error().message;
  EXPECT_LE(t_slim, simulated(sliced->plan, cost) * (1 + 1e-12));
}

INSTANTIATE_TEST_SUITE_P(ResultsConfigurations, NeverSlower,
                         ::testing::Values(ResultsCase{"llama-3-8b", 2, 4, 1, "long-256k"},
                                           ResultsCase{"llama-3-70b", 8, 8, 1, "long-256k"},
                                           ResultsCase{"llama-3-8b", 2, 4, 1, "long-sft-128k"},
                                           ResultsCase{"llama-3-70b", 8, 8, 1, "long-sft-128k"},
                                           ResultsCase{"llama-3-8b", 8, 4, 1, "uniform"},
                                           ResultsCase{"llama-3-8b", 8, 4, 1, "chat-sft"},
                                           ResultsCase{"llama-3-8b", 2, 4, 2, "long-256k"}));

// The acceptance case (Llama-3-8B, t=2, p=4, d=1, a 256K tail): memory binds. The ranking
// prices recompute, so the chosen plan does not recompute every layer (the affine estimate used
// to pick a plan that did, 3% slower), and the memory-aware drain build (Mb = Mf - w) balances
// its backward packs within the cap better than any symmetric plan of the ablation.
TEST(SlimPackTightMemory, TheDrainBuildWinsAndRecomputesLessThanEverything) {
  const Batch batch = preset_batch("long-256k", 1048576);
  const CostModel cost = cli_cost("llama-3-8b", 2, 4, 1, batch);
  SolveInput in{batch, &cost, {}};
  auto slim = solve("slimpack", in);
  ASSERT_TRUE(slim.ok()) << slim.error().message;
  SolveInput sym = in;
  sym.params.asymmetric = false;
  auto ablation = solve("slimpack", sym);
  ASSERT_TRUE(ablation.ok()) << ablation.error().message;
  const ReplicaPlan& rp = slim->plan.replicas[0];
  EXPECT_LT(rp.backward.size(), rp.forward.size());  // a drain: Mb = Mf - w
  EXPECT_EQ(static_cast<int>(rp.forward.size() - rp.backward.size()), slim->plan.warmup_extra);
  auto total = [](const std::vector<int>& layers) {
    int n = 0;
    for (int r : layers) n += r;
    return n;
  };
  EXPECT_LT(total(slim->plan.recompute_layers), total(cost.max_recompute_layers()));
  EXPECT_LE(total(slim->plan.recompute_layers), total(ablation->plan.recompute_layers));
  EXPECT_LT(simulated(slim->plan, cost), simulated(ablation->plan, cost));
  // The chosen candidate is a typed field (the explorer's auto-S note), named like the notes.
  EXPECT_EQ(slim->stats.chosen_candidate.rfind("S=", 0), 0u) << slim->stats.chosen_candidate;
  EXPECT_NE(slim->stats.notes.find("chosen: " + slim->stats.chosen_candidate), std::string::npos);
}

// Where memory is loose the plan is within 5% of the per-stage work bound (the busiest stage's
// compute: no schedule of the same packs finishes earlier), on the long-context presets.
TEST(SlimPackLooseMemory, WithinFivePercentOfTheStageWorkBound) {
  for (const ResultsCase c : {ResultsCase{"llama-3-8b", 2, 4, 1, "long-sft-128k"},
                              ResultsCase{"llama-3-70b", 8, 8, 1, "long-sft-128k"},
                              ResultsCase{"llama-3-8b", 2, 4, 1, "long-256k"}}) {
    const Batch batch = preset_batch(c.preset, 1048576);
    const CostModel cost = cli_cost(c.model, c.tp, c.pp, c.dp, batch, 1e14);
    SolveInput in{batch, &cost, {}};
    auto slim = solve("slimpack", in);
    ASSERT_TRUE(slim.ok()) << slim.error().message;
    auto sim = simulate(slim->plan, &cost);
    ASSERT_TRUE(sim.ok());
    EXPECT_GT(sim->stage_work_bound, 0.0);
    EXPECT_LE(sim->gap_to_bound, 0.05) << c.model << " " << c.preset;
  }
}

// A legal plan by hand: one slice per pack, the sequences one after the other, each sequence's
// backward replayed in reverse (L2) as soon as the warm-up w = (most slices of a sequence) - 1
// makes it ready (L3). It holds at most one sequence plus the packs in flight: the plan a careful
// user would write when memory is tight.
Plan hand_plan(const Batch& batch, Tokens slice, int pp) {
  Plan plan;
  plan.stages = pp;
  plan.slice_size = slice;
  plan.strategy = "hand";
  plan.sequences = batch.sequences;
  ReplicaPlan rp;
  int most = 1;
  for (std::size_t i = 0; i < batch.sequences.size(); ++i) {
    const Tokens n = batch.sequences[i].length;
    std::vector<Pack> mine;
    for (Tokens b = 0; b < n; b += slice) {
      Pack p;
      p.segments.push_back({static_cast<SeqIndex>(i), b, std::min(n, b + slice), 1, 0});
      mine.push_back(p);
    }
    most = std::max(most, static_cast<int>(mine.size()));
    rp.forward.insert(rp.forward.end(), mine.begin(), mine.end());
    rp.backward.insert(rp.backward.end(), mine.rbegin(), mine.rend());
  }
  plan.replicas.push_back(std::move(rp));
  plan.warmup_extra = most - 1;
  return plan;
}

// Legal under the cost model's memory cap with the recompute `auto` resolves for it.
bool legal(Plan& plan, const CostModel& cost) {
  plan.recompute_layers = cost.recompute_layers(plan);
  const MemoryModel mm = cost.memory_model(plan.recompute_layers);
  LegalityOptions opt;
  opt.memory = &mm;
  return check_legality(plan, opt).legal();
}

TEST(SlimPackTightMemory, APlanWheneverAHandBuiltOneIsLegal) {
  const Batch batch = test::batch_of({131072, 60000, 30000, 9000, 7000, 5000, 4000, 3000, 2500,
                                      2000, 1500, 1200, 1000, 800, 600, 500, 300, 200});
  int legal_caps = 0;
  for (double cap_gb = 30.0; cap_gb <= 80.0; cap_gb += 2.5) {
    const CostModel cost = cli_cost("llama-3-8b", 2, 4, 1, batch, cap_gb * 1e9);
    bool hand_legal = false;
    double hand_time = 0.0;
    for (Tokens s : {1024, 2048, 4096}) {
      Plan hand = hand_plan(batch, s, 4);
      if (!legal(hand, cost)) continue;
      const double t = simulated(hand, cost);
      if (!hand_legal || t < hand_time) hand_time = t;
      hand_legal = true;
    }
    if (!hand_legal) continue;
    ++legal_caps;
    SolveInput in{batch, &cost, {}};
    auto slim = solve("slimpack", in);
    ASSERT_TRUE(slim.ok()) << cap_gb << " GB: " << slim.error().message;
    test::expect_valid_plan(slim->plan, cost);
    // Not a bound on quality (the hand plan runs one slice per pack), but where it is legal and
    // the solver's plan is slower something is badly off.
    EXPECT_LE(simulated(slim->plan, cost), hand_time * 1.10) << cap_gb << " GB";
  }
  EXPECT_GE(legal_caps, 5);  // the caps span from below the tightest legal plan to loose
}

}  // namespace
}  // namespace slimpack
