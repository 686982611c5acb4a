#include "pipeline.h"

namespace slimpack::cli {

Expected<RunOutcome> run_strategy(const RunSetup& setup, const std::string& strategy,
                                  const StrategyParams& params, bool keep_ops) {
  SolveInput input;
  input.batch = setup.workload.batch;
  input.cost = setup.cost.get();
  input.params = params;
  SimOptions opt;
  opt.keep_ops = keep_ops;
  opt.memory_timeline = keep_ops;
  opt.critical_path = keep_ops;
  return solve_and_simulate(strategy, input, opt);
}

}  // namespace slimpack::cli
