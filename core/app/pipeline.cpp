#include "app/pipeline.h"

#include <chrono>

#include "app/config_options.h"
#include "app/strategy_run.h"
#include "cost/hf_config.h"

namespace slimpack {
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

Status check_context_window(const ConfigSpec& config, const Batch& batch) {
  if (config.context <= 0) return {};
  for (const Sequence& seq : batch.sequences)
    if (seq.length > config.context)
      return Error::bad_field("context", "sample '" + seq.id + "' has " +
                                             std::to_string(seq.length) +
                                             " tokens, more than the context window of " +
                                             std::to_string(config.context) + " tokens");
  return {};
}

// Fills the snapshot from a plan opened from a file: simulate only.
Status run_plan_file(const PipelineRequest& request, const CancelToken& cancel,
                     ProgressSink& progress, ExplorerSnapshot& snap) {
  const Plan& plan = *request.plan;
  snap.batch_lengths = lengths_of(Batch{plan.sequences});
  snap.batch_stats = compute_stats(snap.batch_lengths);
  snap.workload_label = "plan " + request.plan_file;
  if (request.plan_cost_fixed) {
    snap.cost = request.plan_cost;
  } else {
    auto cost = plan_cost_model(plan, request.config, request.plan_model_requested);
    if (!cost) return cost.error();
    snap.cost = *cost;
  }
  if (cancel.cancelled()) return Error::cancelled();
  const auto t0 = std::chrono::steady_clock::now();
  progress.report("simulating", 0.0);
  auto sim = simulate(plan, snap.cost.get(), request.sim, cancel, progress);
  if (!sim) {
    if (sim.error().kind == ErrorKind::Cancelled) return sim.error();
    return sim.error().with_context(request.plan_file);
  }
  snap.sim = std::move(*sim);
  snap.plan = request.plan;
  snap.seconds_simulate = seconds_since(t0);
  return {};
}

// Fills the snapshot from the workload: draw the batch, solve, simulate.
Status run_workload(const PipelineRequest& request, const CancelToken& cancel,
                    ProgressSink& progress, ExplorerSnapshot& snap) {
  auto t0 = std::chrono::steady_clock::now();
  progress.report("loading workload", 0.0);
  auto prepared = prepare_scenario(request.workload, request.config, request.cached_pool);
  if (!prepared) return prepared.error();
  snap.pool = prepared->pool;
  snap.workload_label = prepared->label;
  snap.cost = prepared->inputs.cost;
  snap.batch_lengths = lengths_of(prepared->batch);
  snap.batch_stats = compute_stats(snap.batch_lengths);
  snap.seconds_load = seconds_since(t0);
  if (cancel.cancelled()) return Error::cancelled();

  t0 = std::chrono::steady_clock::now();
  progress.report("solving (" + request.config.strategy + ")", 0.0);
  SolveInput input;
  input.batch = std::move(prepared->batch);
  input.cost = snap.cost.get();
  input.params = prepared->inputs.params;
  StrategyAttempt attempt =
      attempt_strategy(request.config.strategy, input, request.sim, cancel, progress);
  if (attempt.outcome != RunOutcome::Solved) return attempt.error();
  snap.solve_stats = std::move(attempt.run->solve.stats);
  snap.sim = std::move(attempt.run->sim);
  snap.plan = std::make_shared<const Plan>(std::move(attempt.run->solve.plan));
  // Solve and simulate run as one step; the solver's own clock splits the two.
  const double both = seconds_since(t0);
  snap.seconds_solve = std::min(both, snap.solve_stats.total_seconds);
  snap.seconds_simulate = both - snap.seconds_solve;
  return {};
}

}  // namespace

Expected<RunInputs> make_run_inputs(const ConfigSpec& config, const Batch& batch,
                                    std::uint64_t seed) {
  if (Status s = check_context_window(config, batch); !s) return s.error();
  auto cost = make_cost_model(config, {}, &batch);
  if (!cost) return cost.error();
  if (Status s = check_sliding_window((*cost)->model(), batch.sequences); !s) return s.error();
  return RunInputs{*cost, make_strategy_params(config, seed)};
}

Expected<PreparedScenario> prepare_scenario(const WorkloadSpec& workload, const ConfigSpec& config,
                                            const std::shared_ptr<const LengthPool>& cached) {
  PreparedScenario out;
  auto pool = load_pool(workload, cached);
  if (!pool) return pool.error();
  out.pool = *pool;
  auto batch = make_batch(**pool, workload);
  if (!batch) return batch.error();
  out.batch = std::move(*batch);
  out.label = workload_label(workload);
  auto inputs = make_run_inputs(config, out.batch, workload.seed);
  if (!inputs) return inputs.error();
  out.inputs = std::move(*inputs);
  return out;
}

Expected<std::shared_ptr<const CostModel>> plan_cost_model(const Plan& plan,
                                                           const ConfigSpec& config,
                                                           bool model_requested) {
  if (plan.has_explicit_times() && !model_requested) return std::shared_ptr<const CostModel>();
  auto cost = make_cost_model(config, PlanShape{plan.stages, plan.dp()});
  if (!cost) return cost.error();
  if (Status s = check_sliding_window((*cost)->model(), plan.sequences); !s) return s.error();
  return cost;
}

Expected<ExplorerSnapshot> run_pipeline(const PipelineRequest& request, const CancelToken& cancel,
                                        ProgressSink& progress) {
  ExplorerSnapshot snap;
  snap.workload = request.workload;
  snap.config = request.config;
  snap.plan_file = request.plan ? request.plan_file : std::string();
  Status ran = request.plan ? run_plan_file(request, cancel, progress, snap)
                            : run_workload(request, cancel, progress, snap);
  // A message about one option names it as the CLI, the config panel and the docs do
  // ("--stage-layers: the layers sum to 31, ..."), so both front ends show the same text.
  if (!ran) return name_option_in(ran.error(), cli_name);
  snap.memory_cap_bytes = snap.cost ? snap.cost->memory_cap() : 0.0;
  if (cancel.cancelled()) return Error::cancelled();
  if (request.build_timeline) {
    const auto t0 = std::chrono::steady_clock::now();
    progress.report("building timeline", 0.0);
    snap.gantt = std::make_shared<const GanttModel>(GanttModel::build(*snap.plan, snap.sim));
    snap.seconds_simulate += seconds_since(t0);
  }
  return snap;
}

}  // namespace slimpack
