#include "jobs/compare.h"

#include "io/strategy_run.h"
#include "jobs/pipeline.h"

namespace slimpack::ui {

Expected<std::vector<CompareEntry>> run_compare(const CompareRequest& request,
                                                const CancelToken& cancel, ProgressSink& progress) {
  auto cost = make_cost_model(request.config);
  if (!cost) return cost.error();
  std::vector<CompareEntry> out;
  const auto n = static_cast<double>(request.strategies.size());
  for (const auto& strategy : request.strategies) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("compare: " + strategy, static_cast<double>(out.size()) / n);
    CompareEntry e;
    e.strategy = strategy;
    SolveInput input;
    input.batch = request.batch;
    input.cost = cost->get();
    input.params = make_strategy_params(request.config, request.seed);
    // Slice sizes only mean something to slicing strategies; the others pick their own packing.
    if (strategy != "sliced" && strategy != "slimpack") input.params.slice_size = 0;
    auto run = solve_and_simulate(strategy, input, SimOptions{}, cancel);
    if (!run && run.error().kind == ErrorKind::Cancelled) return run.error();
    if (!run) {
      e.error = run.error().message;  // one failed strategy is a row, not a failed comparison
    } else {
      e.gantt = std::make_shared<const GanttModel>(GanttModel::build(run->solve.plan, run->sim));
      e.sim = std::make_shared<const SimResult>(std::move(run->sim));
      e.plan = std::make_shared<const Plan>(std::move(run->solve.plan));
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace slimpack::ui
