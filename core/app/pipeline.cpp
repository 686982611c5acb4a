#include "jobs/pipeline.h"

#include <chrono>

#include "cost/model_config.h"
#include "sim/simulator.h"

namespace slimpack::ui {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Lengths of the batch in batch order, for the histogram and the statistics.
std::vector<Tokens> lengths_of(const Batch& batch) {
  std::vector<Tokens> out;
  out.reserve(batch.sequences.size());
  for (const auto& s : batch.sequences) out.push_back(s.length);
  return out;
}

}  // namespace

Expected<ExplorerSnapshot> run_pipeline(const PipelineRequest& request, const CancelToken& cancel,
                                        ProgressSink& progress) {
  ExplorerSnapshot snap;
  snap.workload = request.workload;
  snap.config = request.config;
  snap.plan_file = request.plan_file;

  auto t0 = std::chrono::steady_clock::now();
  progress.report("loading workload", 0.0);
  auto cost = make_cost_model(request.config);
  if (!cost) return cost.error();
  Plan plan;
  if (request.plan) {
    plan = *request.plan;
    Batch batch{plan.sequences};
    snap.batch_lengths = lengths_of(batch);
  } else {
    auto pool = load_pool(request.workload, request.cached_pool);
    if (!pool) return pool.error();
    snap.pool = *pool;
    auto batch = make_batch(**pool, request.workload);
    if (!batch) return batch.error();
    snap.batch_lengths = lengths_of(*batch);
    snap.seconds_load = seconds_since(t0);
    if (cancel.cancelled()) return Error::cancelled();

    t0 = std::chrono::steady_clock::now();
    progress.report("solving (" + request.config.strategy + ")", 0.0);
    SolveInput input;
    input.batch = std::move(*batch);
    input.cost = cost->get();
    input.params = make_strategy_params(request.config, request.workload.seed);
    auto solved = solve(request.config.strategy, input, cancel, progress);
    if (!solved) return solved.error();
    plan = std::move(solved->plan);
    snap.solve_stats = std::move(solved->stats);
    snap.seconds_solve = seconds_since(t0);
  }
  snap.batch_stats = compute_stats(snap.batch_lengths);
  if (cancel.cancelled()) return Error::cancelled();

  t0 = std::chrono::steady_clock::now();
  progress.report("simulating", 0.0);
  // A plan with explicit times is an abstract what-if: simulate it without the cost model.
  const CostModel* model = plan.has_explicit_times() ? nullptr : cost->get();
  auto sim = simulate(plan, model, SimOptions{}, cancel, progress);
  if (!sim) return sim.error();
  snap.sim = std::move(*sim);
  snap.memory_cap_bytes = model ? model->memory_cap() : 0.0;
  if (cancel.cancelled()) return Error::cancelled();
  progress.report("building timeline", 0.0);
  snap.gantt = std::make_shared<const GanttModel>(GanttModel::build(plan, snap.sim));
  snap.plan = std::make_shared<const Plan>(std::move(plan));
  snap.seconds_simulate = seconds_since(t0);
  return snap;
}

}  // namespace slimpack::ui
