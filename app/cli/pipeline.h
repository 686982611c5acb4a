#pragma once
// solve -> simulate for one strategy: the core pipeline every workload-driven command runs.
#include <string>

#include "common/status.h"
#include "io/strategy_run.h"
#include "setup.h"
#include "sim/sim_result.h"
#include "solver/strategy.h"

namespace slimpack::cli {

using RunOutcome = StrategyRun;

Expected<RunOutcome> run_strategy(const RunSetup& setup, const std::string& strategy,
                                  const StrategyParams& params, bool keep_ops);

}  // namespace slimpack::cli
