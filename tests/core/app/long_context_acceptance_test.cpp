// The long-context acceptance on the seeded long-256k preset, through the same scenario functions
// the CLI and the GUI use: a 256K tail, Llama-3-8B, H100, --context 262144, recompute auto.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/scenario.h"
#include "app/strategy_run.h"

namespace slimpack {
namespace {

struct Scenario {
  Batch batch;
  std::shared_ptr<const CostModel> cost;
  StrategyParams params;
};

Scenario setup(int tp, int pp, int dp, Tokens slice = 0) {
  WorkloadSpec w;
  w.preset = "long-256k";
  w.batch_tokens = Tokens{1048576} * dp;
  ConfigSpec c;
  c.tp = tp;
  c.pp = pp;
  c.dp = dp;
  c.context = 262144;
  c.slice_size = slice;
  auto pool = load_pool(w);
  EXPECT_TRUE(pool.ok());
  auto batch = make_batch(**pool, w);
  EXPECT_TRUE(batch.ok());
  auto cost = make_cost_model(c, {}, &*batch);
  EXPECT_TRUE(cost.ok()) << cost.error().message;
  return {*batch, *cost, make_strategy_params(c, w.seed)};
}

double run(const std::string& strategy, const Scenario& s) {
  SolveInput in{s.batch, s.cost.get(), s.params};
  SimOptions opt;
  opt.memory_timeline = false;
  opt.critical_path = false;
  auto r = solve_and_simulate(strategy, in, opt);
  EXPECT_TRUE(r.ok()) << strategy << ": " << (r.ok() ? "" : r.error().message);
  if (!r) return 0.0;
  EXPECT_TRUE(r->sim.legal) << strategy << ": " << r->sim.legality_message;
  return r->sim.iteration_time;
}

TEST(LongContextAcceptance, TheBatchHasA256kTail) {
  const Scenario s = setup(2, 4, 1);
  Tokens longest = 0;
  for (const auto& q : s.batch.sequences) longest = std::max(longest, q.length);
  EXPECT_GT(longest, 200000);
}

TEST(LongContextAcceptance, EveryStrategyIsLegalAndSlimPackNeverSlowerThanSliced) {
  const Scenario s = setup(2, 4, 1);
  const double fixed = run("fixed", s);
  const double balanced = run("balanced", s);
  const double sliced = run("sliced", s);
  const double slim = run("slimpack", s);
  EXPECT_GT(balanced, 0.0);
  EXPECT_LE(slim, sliced);
  EXPECT_LT(slim, fixed);
  // Not asserted at 2x: the figure is measured and reported in docs/results.md.
  RecordProperty("fixed_over_slimpack", std::to_string(fixed / slim));
}

TEST(LongContextAcceptance, FixedIsFeasibleWithRecomputeAuto) {
  for (int tp : {2, 4, 8})
    for (int pp : {4, 8})
      for (int dp : {1, 4}) {
        SCOPED_TRACE("t=" + std::to_string(tp) + " p=" + std::to_string(pp) +
                     " d=" + std::to_string(dp));
        EXPECT_GT(run("fixed", setup(tp, pp, dp)), 0.0);
      }
}

TEST(LongContextAcceptance, AutomaticSliceSizeIsWithinThreePercentOfTheSweep) {
  const double automatic = run("slimpack", setup(2, 4, 1));
  double best = 1e300;
  for (Tokens s : {1024, 2048, 4096, 8192, 16384})
    best = std::min(best, run("slimpack", setup(2, 4, 1, s)));
  EXPECT_LE(automatic, 1.03 * best);
}

}  // namespace
}  // namespace slimpack
