#pragma once
// solve -> simulate for one strategy: what the CLI's commands and the explorer's pipeline,
// comparison and slice-size sweep all run, so that a failure reads the same everywhere.
#include <optional>
#include <string>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "sim/sim_result.h"
#include "sim/simulator.h"
#include "solver/strategy.h"

namespace slimpack {

struct StrategyRun {
  SolveResult solve;
  SimResult sim;
};

// How one attempt ended, as a value: callers branch on this, never on a message.
enum class RunOutcome {
  Solved,      // `run` holds the plan and its simulation
  Infeasible,  // the strategy cannot place the batch (a sequence over the memory cap, ...)
  Cancelled,   // the cancel token fired
  Failed,      // bad parameters or a bug: not a property of the workload
};

struct StrategyAttempt {
  RunOutcome outcome = RunOutcome::Failed;
  std::optional<StrategyRun> run;
  // Infeasible / Failed: the solver's or the simulator's own error, without a prefix (what a
  // comparison row shows next to the strategy's name).
  Error cause;
  // Where it failed: "strategy NAME" (planning) or "simulating the NAME plan".
  std::string where;

  // The cause prefixed with where it happened ("strategy fixed: ..."); Error::cancelled() for a
  // cancellation. What a caller that stops on the failure reports.
  Error error() const;
};

// Solves `strategy` on the input and simulates its plan with the input's cost model.
StrategyAttempt attempt_strategy(const std::string& strategy, const SolveInput& input,
                                 const SimOptions& options = {},
                                 const CancelToken& cancel = CancelToken::none(),
                                 ProgressSink& progress = ProgressSink::none());

// The same as an Expected: a plan and its simulation, or attempt.error().
Expected<StrategyRun> solve_and_simulate(const std::string& strategy, const SolveInput& input,
                                         const SimOptions& options = {},
                                         const CancelToken& cancel = CancelToken::none(),
                                         ProgressSink& progress = ProgressSink::none());

}  // namespace slimpack
