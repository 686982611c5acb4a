#include "app/strategy_run.h"

namespace slimpack {
namespace {

RunOutcome outcome_of(const Error& e) {
  switch (e.kind) {
    case ErrorKind::Infeasible:
      return RunOutcome::Infeasible;
    case ErrorKind::Cancelled:
      return RunOutcome::Cancelled;
    case ErrorKind::BadInput:
    case ErrorKind::Internal:
      return RunOutcome::Failed;
  }
  return RunOutcome::Failed;
}

}  // namespace

Error StrategyAttempt::error() const {
  if (outcome == RunOutcome::Cancelled) return Error::cancelled();
  if (outcome == RunOutcome::Solved) return Error::internal("no error: the strategy solved");
  return cause.with_context(where);
}

StrategyAttempt attempt_strategy(const std::string& strategy, const SolveInput& input,
                                 const SimOptions& options, const CancelToken& cancel,
                                 ProgressSink& progress) {
  StrategyAttempt a;
  auto solved = solve(strategy, input, cancel, progress);
  if (!solved) {
    a.outcome = outcome_of(solved.error());
    a.cause = solved.error();
    a.where = "strategy " + strategy;
    return a;
  }
  auto sim = simulate(solved->plan, input.cost, options, cancel, progress);
  if (!sim) {
    a.outcome = outcome_of(sim.error());
    a.cause = sim.error();
    a.where = "simulating the " + strategy + " plan";
    return a;
  }
  a.outcome = RunOutcome::Solved;
  a.run = StrategyRun{std::move(*solved), std::move(*sim)};
  return a;
}

Expected<StrategyRun> solve_and_simulate(const std::string& strategy, const SolveInput& input,
                                         const SimOptions& options, const CancelToken& cancel,
                                         ProgressSink& progress) {
  StrategyAttempt a = attempt_strategy(strategy, input, options, cancel, progress);
  if (a.outcome != RunOutcome::Solved) return a.error();
  return std::move(*a.run);
}

}  // namespace slimpack
