#include "jobs/compare.h"

#include "jobs/pipeline.h"
#include "sim/simulator.h"
#include "solver/strategy.h"

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
    auto solved = solve(strategy, input, cancel);
    if (!solved) {
      if (solved.error().kind == ErrorKind::Cancelled) return solved.error();
      e.error = solved.error().message;
      out.push_back(std::move(e));
      continue;
    }
    auto sim = simulate(solved->plan, cost->get(), SimOptions{}, cancel);
    if (!sim) {
      if (sim.error().kind == ErrorKind::Cancelled) return sim.error();
      e.error = sim.error().message;
    } else {
      e.gantt = std::make_shared<const GanttModel>(GanttModel::build(solved->plan, *sim));
      e.sim = std::make_shared<const SimResult>(std::move(*sim));
      e.plan = std::make_shared<const Plan>(std::move(solved->plan));
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace slimpack::ui
