// simulate(): legality, one DAG and one sweep per replica, the DP sync barrier, then metrics.
#include "sim/simulator.h"

#include <algorithm>
#include <string>

#include "plan/legality.h"
#include "sim/dag.h"

namespace slimpack {

const char* op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::Forward:
      return "forward";
    case OpKind::Backward:
      return "backward";
    case OpKind::P2P:
      return "p2p";
    case OpKind::DpSync:
      return "dp_sync";
    case OpKind::Optimizer:
      return "optimizer";
  }
  return "unknown";
}

namespace {

Status check_shape(const Plan& plan) {
  if (plan.stages < 1 || plan.stages > 32767)
    return Error::bad_field("plan",
                            "stages must be in [1, 32767], got " + std::to_string(plan.stages));
  if (plan.vchunks < 1 || plan.vchunks > 127)
    return Error::bad_field("plan",
                            "vchunks must be in [1, 127], got " + std::to_string(plan.vchunks));
  if (plan.warmup_extra < 0)
    return Error::bad_field("plan",
                            "warmup_extra must be >= 0, got " + std::to_string(plan.warmup_extra));
  if (plan.replicas.empty()) return Error::bad_field("plan", "no replicas");
  if (!(plan.p2p_latency >= 0.0)) return Error::bad_field("plan", "p2p_latency must be >= 0");
  return Status::success();
}

// Memory violations (L4) do not stop a simulation: the plan is reported as not legal and its
// memory timeline shows by how much. Every other violation makes the schedule meaningless.
Status apply_legality(const Plan& plan, const CostModel* cost, const MemoryModel* memory,
                      SimResult& result) {
  LegalityOptions lo;
  if (cost) lo.token_cap = cost->options().token_cap;
  lo.memory = memory;
  const LegalityReport report = check_legality(plan, lo);
  for (const Violation& v : report.violations)
    if (v.rule != Rule::L4) return Error::bad_input("illegal plan: " + v.message);
  if (!report.legal()) {
    result.legal = false;
    result.legality_message = report.summary();
  }
  return Status::success();
}

void aggregate(const Plan& plan, const CostModel* cost, SimResult& result) {
  double bubble_sum = 0.0;
  for (const ReplicaResult& r : result.replicas) {
    result.makespan = std::max(result.makespan, r.makespan);
    result.iteration_time = std::max(result.iteration_time, r.finish);
    double busy = 0.0;
    for (const StageResult& st : r.stages) {
      busy += st.busy;
      result.stage_work_bound = std::max(result.stage_work_bound, st.busy);
      result.peak_memory_bytes = std::max(result.peak_memory_bytes, st.peak_memory_bytes);
    }
    if (r.makespan > 0.0) bubble_sum += 1.0 - busy / (plan.stages * r.makespan);
  }
  result.bubble_ratio = bubble_sum / static_cast<double>(result.replicas.size());
  if (result.makespan > 0.0) result.gap_to_bound = 1.0 - result.stage_work_bound / result.makespan;
  const auto tokens = static_cast<double>(plan.total_tokens());
  if (result.iteration_time > 0.0) result.tokens_per_second = tokens / result.iteration_time;
  if (cost && result.iteration_time > 0.0) {
    // Model FLOPs count each sequence's full causal attention once, whatever the slicing.
    double pairs = 0.0;
    for (const Sequence& s : plan.sequences) {
      const auto n = static_cast<double>(s.length);
      pairs += n * (n + 1.0) / 2.0;
    }
    const double peak = cost->cluster_peak_flops();
    if (peak > 0.0) result.mfu = cost->step_flops(tokens, pairs) / (result.iteration_time * peak);
  }
}

}  // namespace

Expected<SimResult> simulate(const Plan& plan, const CostModel* cost, const SimOptions& options,
                             const CancelToken& cancel, ProgressSink& progress) {
  if (Status st = check_shape(plan); !st) return st.error();
  SimResult result;
  result.time_unit = cost ? "s" : "units";
  MemoryModel cost_memory;
  const MemoryModel* memory = options.memory;
  if (!memory && cost) {
    cost_memory = cost->memory_model(plan.recompute_layers);
    memory = &cost_memory;
  }
  if (options.check_legality) {
    progress.report("checking legality", 0.0);
    if (Status st = apply_legality(plan, cost, memory, result); !st) return st.error();
  } else {
    result.legality_message = "not checked";
  }

  const int d = plan.dp();
  std::vector<sim_detail::ReplicaDag> dags;
  std::vector<sim_detail::Schedule> schedules;
  dags.reserve(static_cast<std::size_t>(d));
  schedules.reserve(static_cast<std::size_t>(d));
  for (int r = 0; r < d; ++r) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("simulating replicas", static_cast<double>(r) / d);
    auto dag = sim_detail::build_replica_dag(plan, r, cost);
    if (!dag) return dag.error();
    auto sched = sim_detail::evaluate(*dag, cancel);
    if (!sched) return sched.error();
    dags.push_back(std::move(dag).value());
    schedules.push_back(std::move(sched).value());
  }
  sim_detail::apply_dp_barrier(dags, schedules);

  progress.report("collecting metrics", 0.0);
  result.replicas.reserve(static_cast<std::size_t>(d));
  for (int r = 0; r < d; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    std::int32_t last = -1;
    ReplicaResult rr =
        sim_detail::collect_replica(plan, dags[ri], schedules[ri], options.keep_ops, &last);
    if (options.critical_path)
      rr.critical_path = sim_detail::critical_path(dags[ri], schedules[ri], last);
    if (memory && options.memory_peaks)
      sim_detail::memory_timeline(plan, dags[ri], schedules[ri], *memory, options.memory_timeline,
                                  rr);
    result.replicas.push_back(std::move(rr));
  }
  aggregate(plan, cost, result);
  progress.report("collecting metrics", 1.0);
  return result;
}

}  // namespace slimpack
