#include "io/strategy_run.h"

namespace slimpack {

Expected<StrategyRun> solve_and_simulate(const std::string& strategy, const SolveInput& input,
                                         const SimOptions& options, const CancelToken& cancel) {
  auto solved = solve(strategy, input, cancel);
  if (!solved) {
    if (solved.error().kind == ErrorKind::Cancelled) return solved.error();
    return solved.error().with_context("strategy " + strategy);
  }
  auto sim = simulate(solved->plan, input.cost, options, cancel);
  if (!sim) {
    if (sim.error().kind == ErrorKind::Cancelled) return sim.error();
    return sim.error().with_context("simulating the " + strategy + " plan");
  }
  return StrategyRun{std::move(*solved), std::move(*sim)};
}

}  // namespace slimpack
