// solve_and_simulate: the same plan and timings as solve() then simulate(), failures prefixed
// with what failed, and a cancellation left as it is.
#include <gtest/gtest.h>

#include "../solver/solver_test_util.h"
#include "app/strategy_run.h"

namespace slimpack {
namespace {

TEST(StrategyRun, EqualsSolveThenSimulate) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  const SolveInput in{test::batch_of({4096, 1024, 2048, 512}), &cost, {}};
  auto run = solve_and_simulate("sliced", in);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto solved = solve("sliced", in);
  ASSERT_TRUE(solved.ok());
  auto sim = simulate(solved->plan, &cost);
  ASSERT_TRUE(sim.ok());
  EXPECT_EQ(run->solve.plan.replicas.front().forward.size(),
            solved->plan.replicas.front().forward.size());
  EXPECT_DOUBLE_EQ(run->sim.iteration_time, sim->iteration_time);
  EXPECT_DOUBLE_EQ(run->sim.bubble_ratio, sim->bubble_ratio);
  EXPECT_GT(run->sim.iteration_time, 0.0);
}

TEST(StrategyRun, FailuresNameTheStrategy) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  const SolveInput in{test::batch_of({10, 20}), &cost, {}};
  auto run = solve_and_simulate("magic", in);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
  EXPECT_EQ(run.error().message.rfind("strategy magic: ", 0), 0u) << run.error().message;
}

TEST(StrategyRun, CancellationIsNotDressedAsAFailure) {
  const CostModel cost = test::linear_cost(2, 1, 1e-6, 0, 2e-6, 0);
  const SolveInput in{test::batch_of({4096, 1024, 2048, 512}), &cost, {}};
  CancelToken cancel;
  cancel.cancel();
  auto run = solve_and_simulate("slimpack", in, {}, cancel);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().kind, ErrorKind::Cancelled);
  EXPECT_EQ(run.error().message.find("strategy slimpack"), std::string::npos);
}

}  // namespace
}  // namespace slimpack
