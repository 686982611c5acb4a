#include "app/compare.h"

#include "app/pipeline.h"
#include "app/strategy_run.h"
#include "app/strategy_variant.h"

namespace slimpack {
namespace {

// One row: the variant's own cost model when its configuration differs, then solve + simulate.
Expected<CompareEntry> compare_row(const CompareRequest& request, const StrategyVariant& v,
                                   const RunInputs& base, const CancelToken& cancel) {
  CompareEntry e;
  e.strategy = v.label;
  e.strategy_name = v.strategy;
  e.config = v.config;
  if (!v.not_applicable.empty()) {
    e.outcome = RowOutcome::NotApplicable;
    e.reason = v.not_applicable;
    return e;
  }
  RunInputs inputs = base;
  if (!(v.config == request.config)) {
    auto variant = make_run_inputs(v.config, request.batch, request.seed);
    if (!variant) return variant.error().with_context("strategy variant '" + v.label + "'");
    inputs = std::move(*variant);
  }
  // Slice sizes only mean something to slicing strategies; the others pick their own packing.
  const auto info = strategy_info(v.strategy);
  if (info && !info->uses_slices) inputs.params.slice_size = 0;
  e.cost = inputs.cost;
  SolveInput input;
  input.batch = request.batch;
  input.cost = inputs.cost.get();
  input.params = inputs.params;
  StrategyAttempt a = attempt_strategy(v.strategy, input, request.sim, cancel);
  switch (a.outcome) {
    case RunOutcome::Solved:
      break;
    case RunOutcome::Infeasible:
      e.outcome = RowOutcome::Infeasible;
      e.reason = a.cause.message;
      e.limit = a.cause.detail;
      return e;
    case RunOutcome::Cancelled:
    case RunOutcome::Failed:
      return a.error();
  }
  e.solver_seconds = a.run->solve.stats.total_seconds;
  e.stage_peak_memory_bytes = stage_peak_memory(a.run->sim);
  if (request.build_timelines)
    e.gantt = std::make_shared<const GanttModel>(GanttModel::build(a.run->solve.plan, a.run->sim));
  e.sim = std::make_shared<const SimResult>(std::move(a.run->sim));
  e.plan = std::make_shared<const Plan>(std::move(a.run->solve.plan));
  return e;
}

}  // namespace

// A failed first strategy must not turn every speed-up into nothing (or 0.00x).
void set_compare_speedups(std::vector<CompareEntry>& rows) {
  const CompareEntry* base = nullptr;
  for (const CompareEntry& e : rows)
    if (e.solved()) {
      base = &e;
      break;
    }
  if (base == nullptr) return;
  const double t0 = base->sim->iteration_time;
  for (CompareEntry& e : rows) {
    e.baseline = &e == base;
    if (e.solved() && t0 > 0 && e.sim->iteration_time > 0) e.speedup = t0 / e.sim->iteration_time;
  }
}

std::vector<std::string> default_compare_strategies() {
  return {"fixed", "balanced", "sliced", "slimpack"};
}

Expected<std::vector<CompareEntry>> run_compare(const CompareRequest& request,
                                                const CancelToken& cancel, ProgressSink& progress) {
  std::vector<StrategyVariant> variants;
  for (const auto& text : request.strategies) {
    auto v = parse_strategy_variant(text, request.config);
    if (!v) return v.error();
    variants.push_back(std::move(*v));
  }
  auto base = make_run_inputs(request.config, request.batch, request.seed);
  if (!base) return base.error();
  std::vector<CompareEntry> rows;
  const auto n = static_cast<double>(variants.size());
  for (const auto& v : variants) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("compare: " + v.label, static_cast<double>(rows.size()) / n);
    auto row = compare_row(request, v, *base, cancel);
    if (!row) return row.error();
    rows.push_back(std::move(*row));
  }
  set_compare_speedups(rows);
  return rows;
}

}  // namespace slimpack
