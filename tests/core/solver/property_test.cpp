// Property tests: random batches, seeds and configurations; every strategy's plan is legal, keeps
// every token exactly once, fits memory, and slimpack is never slower than sliced with the same S.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "solver_test_util.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

struct Config {
  const char* preset;
  int pp, dp;
  Tokens slice;
  std::uint64_t seed;
};

class StrategyProperties : public ::testing::TestWithParam<Config> {};

TEST_P(StrategyProperties, PlansAreLegalAndSlimPackIsNotSlowerThanSliced) {
  const Config c = GetParam();
  auto pool = preset_pool(c.preset, c.seed, 4000);
  ASSERT_TRUE(pool.ok());
  auto batch = sample_batch(*pool, {Tokens{1} << 19, 0, c.seed});
  ASSERT_TRUE(batch.ok());
  const CostModel cost = test::preset_cost(c.pp, c.dp, 8);
  SolveInput in{*batch, &cost, {}};
  in.params.slice_size = c.slice;
  double sliced = -1.0, slim = -1.0;
  for (const auto& name : strategy_names()) {
    auto r = solve(name, in);
    if (!r) {  // baselines may not fit memory; slimpack must whenever sliced does
      EXPECT_EQ(r.error().kind, ErrorKind::Infeasible) << name << ": " << r.error().message;
      continue;
    }
    test::expect_valid_plan(r->plan, cost);
    EXPECT_EQ(r->plan.dp(), c.dp);
    EXPECT_EQ(r->plan.stages, c.pp);
    auto sim = simulate(r->plan, &cost);
    ASSERT_TRUE(sim.ok()) << name << ": " << sim.error().message;
    if (name == "sliced") sliced = sim->iteration_time;
    if (name == "slimpack") slim = sim->iteration_time;
  }
  if (sliced > 0.0) {
    ASSERT_GT(slim, 0.0);
    EXPECT_LE(slim, sliced * (1.0 + 1e-12));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Random, StrategyProperties,
    ::testing::Values(Config{"short-heavy-tail", 2, 1, 4096, 1},
                      Config{"short-heavy-tail", 4, 2, 0, 2},
                      Config{"short-heavy-tail", 8, 4, 8192, 3},
                      Config{"long-sft-128k", 2, 2, 2048, 4},
                      Config{"long-sft-128k", 4, 4, 16384, 5}, Config{"long-sft-128k", 8, 1, 0, 6},
                      Config{"chat-sft", 2, 4, 1024, 7}, Config{"chat-sft", 4, 1, 0, 8},
                      Config{"chat-sft", 8, 2, 4096, 9}, Config{"uniform", 4, 2, 0, 10}));

}  // namespace
}  // namespace slimpack
