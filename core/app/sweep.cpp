#include "jobs/sweep.h"

#include "io/strategy_run.h"
#include "jobs/pipeline.h"

namespace slimpack::ui {

std::vector<Tokens> default_slice_sizes(Tokens longest) {
  std::vector<Tokens> out;
  for (Tokens s = 512; s < longest && out.size() < 12; s *= 2) out.push_back(s);
  if (out.empty() || out.back() < longest) out.push_back(std::max<Tokens>(longest, 512));
  return out;
}

Expected<std::vector<SweepPoint>> run_sweep(const SweepRequest& request, const CancelToken& cancel,
                                            ProgressSink& progress) {
  auto cost = make_cost_model(request.config);
  if (!cost) return cost.error();
  // Strategies without slices ignore S; sweep the sliced variant of the same idea instead of
  // drawing a flat line.
  const bool slices = request.config.strategy == "sliced" || request.config.strategy == "slimpack";
  const std::string strategy = slices ? request.config.strategy : default_strategy();
  SimOptions sim_options;
  sim_options.keep_ops = false;
  sim_options.memory_timeline = false;
  sim_options.critical_path = false;

  std::vector<SweepPoint> points;
  const auto n = static_cast<double>(request.slice_sizes.size());
  for (Tokens s : request.slice_sizes) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("sweep: S = " + std::to_string(s), static_cast<double>(points.size()) / n);
    SweepPoint pt;
    pt.slice_size = s;
    SolveInput input;
    input.batch = request.batch;
    input.cost = cost->get();
    input.params = make_strategy_params(request.config, request.seed);
    input.params.slice_size = s;
    auto run = solve_and_simulate(strategy, input, sim_options, cancel);
    if (!run && run.error().kind == ErrorKind::Cancelled) return run.error();
    if (!run) {
      pt.error = run.error().message;  // an infeasible S is a point, not a failed sweep
    } else {
      pt.ok = true;
      pt.iteration_time = run->sim.iteration_time;
      pt.bubble_ratio = run->sim.bubble_ratio;
    }
    points.push_back(std::move(pt));
  }
  return points;
}

}  // namespace slimpack::ui
