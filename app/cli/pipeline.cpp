#include "pipeline.h"

#include "sim/simulator.h"

namespace slimpack::cli {

Expected<RunOutcome> run_strategy(const RunSetup& setup, const std::string& strategy,
                                  const StrategyParams& params, bool keep_ops) {
  SolveInput input;
  input.batch = setup.workload.batch;
  input.cost = setup.cost.get();
  input.params = params;
  auto solved = solve(strategy, input);
  if (!solved) return solved.error().with_context("strategy " + strategy);
  SimOptions opt;
  opt.keep_ops = keep_ops;
  opt.memory_timeline = keep_ops;
  opt.critical_path = keep_ops;
  auto sim = simulate(solved->plan, setup.cost.get(), opt);
  if (!sim) return sim.error().with_context("simulating the " + strategy + " plan");
  return RunOutcome{std::move(*solved), std::move(*sim)};
}

}  // namespace slimpack::cli
