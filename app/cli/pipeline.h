#pragma once
// solve -> simulate for one strategy: the core pipeline every workload-driven command runs.
#include <string>

#include "common/status.h"
#include "setup.h"
#include "sim/sim_result.h"
#include "solver/strategy.h"

namespace slimpack::cli {

struct RunOutcome {
  SolveResult solve;
  SimResult sim;
};

Expected<RunOutcome> run_strategy(const RunSetup& setup, const std::string& strategy,
                                  const StrategyParams& params, bool keep_ops);

}  // namespace slimpack::cli
