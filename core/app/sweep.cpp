#include "app/sweep.h"

#include <algorithm>

#include "app/strategy_run.h"

namespace slimpack {

std::vector<Tokens> default_slice_sizes(Tokens longest) {
  return swept_slice_sizes(longest);  // what an automatic S is compared against
}

std::string slice_sweep_strategy(const std::string& configured) {
  const auto info = strategy_info(configured);
  return info && info->uses_slices ? configured : default_strategy();
}

Expected<SweepPoint> sweep_point(const std::string& value, const std::string& strategy,
                                 const Batch& batch, const RunInputs& inputs,
                                 const CancelToken& cancel) {
  SimOptions sim_options;
  sim_options.keep_ops = false;
  sim_options.memory_timeline = false;
  sim_options.critical_path = false;
  SolveInput input;
  input.batch = batch;
  input.cost = inputs.cost.get();
  input.params = inputs.params;
  SweepPoint pt;
  pt.value = value;
  pt.slice_size = inputs.params.slice_size;
  StrategyAttempt a = attempt_strategy(strategy, input, sim_options, cancel);
  switch (a.outcome) {
    case RunOutcome::Solved:
      break;
    case RunOutcome::Infeasible:
      pt.error = a.cause.message;
      pt.limit = a.cause.detail;
      return pt;
    case RunOutcome::Cancelled:
    case RunOutcome::Failed:
      return a.error();
  }
  const SimResult& r = a.run->sim;
  pt.ok = true;
  pt.iteration_time = r.iteration_time;
  pt.bubble_ratio = r.bubble_ratio;
  pt.tokens_per_second = r.tokens_per_second;
  pt.peak_memory_bytes = r.peak_memory_bytes;
  pt.solver_seconds = a.run->solve.stats.total_seconds;
  pt.legal = r.legal;
  return pt;
}

Expected<std::vector<SweepPoint>> run_sweep(const SweepRequest& request, const CancelToken& cancel,
                                            ProgressSink& progress) {
  auto base = make_run_inputs(request.config, request.batch, request.seed);
  if (!base) return base.error();
  const std::string strategy = slice_sweep_strategy(request.config.strategy);
  std::vector<SweepPoint> points;
  const auto n = static_cast<double>(request.slice_sizes.size());
  for (Tokens s : request.slice_sizes) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("sweep: S = " + std::to_string(s), static_cast<double>(points.size()) / n);
    RunInputs inputs = *base;
    inputs.params.slice_size = s;
    auto pt = sweep_point(std::to_string(s), strategy, request.batch, inputs, cancel);
    if (!pt && pt.error().kind == ErrorKind::Cancelled) return pt.error();
    if (!pt) return pt.error().with_context("S = " + std::to_string(s));
    points.push_back(std::move(*pt));
  }
  return points;
}

}  // namespace slimpack
