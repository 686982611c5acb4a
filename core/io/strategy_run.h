#pragma once
// solve -> simulate for one strategy: what the CLI's commands and the explorer's comparison and
// slice-size sweep all run, so that a failure reads the same everywhere.
#include <string>

#include "common/cancel.h"
#include "common/status.h"
#include "sim/sim_result.h"
#include "sim/simulator.h"
#include "solver/strategy.h"

namespace slimpack {

struct StrategyRun {
  SolveResult solve;
  SimResult sim;
};

// Solves `strategy` on the input and simulates its plan with the input's cost model. A failure
// to plan is prefixed "strategy NAME: ", a failure to simulate "simulating the NAME plan: "; a
// cancellation comes back as ErrorKind::Cancelled, unprefixed, so callers can tell it apart from
// a strategy that does not fit.
Expected<StrategyRun> solve_and_simulate(const std::string& strategy, const SolveInput& input,
                                         const SimOptions& options = {},
                                         const CancelToken& cancel = CancelToken::none());

}  // namespace slimpack
