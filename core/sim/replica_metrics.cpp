// Per-replica results from a schedule: timed ops per lane, busy time, bubble ratio, makespan and
// finish; the cross-replica DP sync barrier; the critical path.
#include <algorithm>

#include "sim/dag.h"

namespace slimpack::sim_detail {
namespace {

TimedOp timed(const ReplicaDag& dag, const Schedule& sched, std::int32_t v) {
  const DagNode& n = dag.nodes[static_cast<std::size_t>(v)];
  TimedOp op;
  op.start = sched.start[static_cast<std::size_t>(v)];
  op.end = op.start + n.duration;
  op.pack = n.pack;
  op.stage = n.stage;
  op.chunk = n.chunk;
  op.kind = n.kind;
  op.pass = n.pass;
  return op;
}

void sort_by_start(std::vector<TimedOp>& ops) {
  auto earlier = [](const TimedOp& a, const TimedOp& b) { return a.start < b.start; };
  if (!std::is_sorted(ops.begin(), ops.end(), earlier))
    std::stable_sort(ops.begin(), ops.end(), earlier);
}

bool is_compute(OpKind k) {
  return k == OpKind::Forward || k == OpKind::Backward;
}

}  // namespace

void apply_dp_barrier(const std::vector<ReplicaDag>& dags, std::vector<Schedule>& schedules) {
  if (dags.empty()) return;
  const int p = dags.front().stages;
  for (int s = 0; s < p; ++s) {
    const auto si = static_cast<std::size_t>(s);
    double barrier = 0.0;
    bool any = false;
    for (std::size_t r = 0; r < dags.size(); ++r) {
      const std::int32_t sync = dags[r].dp_sync[si];
      if (sync < 0) continue;
      barrier = std::max(barrier, schedules[r].start[static_cast<std::size_t>(sync)]);
      any = true;
    }
    if (!any) continue;
    for (std::size_t r = 0; r < dags.size(); ++r) {
      const std::int32_t sync = dags[r].dp_sync[si];
      if (sync < 0) continue;
      Schedule& sched = schedules[r];
      // The sync keeps its cause (the local last backward); the wait shows up as idle time.
      sched.start[static_cast<std::size_t>(sync)] = barrier;
      const double sync_end = sched.end(dags[r], sync);
      const auto opt = static_cast<std::size_t>(dags[r].optimizer[si]);
      if (sync_end > sched.start[opt]) {
        sched.start[opt] = sync_end;
        sched.cause[opt] = sync;
      }
    }
  }
}

ReplicaResult collect_replica(const Plan& plan, const ReplicaDag& dag, const Schedule& sched,
                              bool keep_ops) {
  ReplicaResult out;
  const int p = dag.stages;
  out.stages.resize(static_cast<std::size_t>(p));
  for (const Pack& pack : plan.replicas[static_cast<std::size_t>(dag.replica)].forward)
    out.tokens += pack.tokens();

  for (int v = 0; v < dag.size(); ++v) {
    const double end = sched.end(dag, v);
    out.finish = std::max(out.finish, end);
    if (is_compute(dag.nodes[static_cast<std::size_t>(v)].kind))
      out.makespan = std::max(out.makespan, end);
  }
  for (int s = 0; s < p; ++s) {
    const auto si = static_cast<std::size_t>(s);
    StageResult& st = out.stages[si];
    const auto first = static_cast<std::size_t>(dag.stage_ops_begin[si]);
    const auto last = static_cast<std::size_t>(dag.stage_ops_begin[si + 1]);
    for (std::size_t i = first; i < last; ++i)
      st.busy += dag.nodes[static_cast<std::size_t>(dag.stage_ops[i])].duration;
    st.bubble_ratio = out.makespan > 0.0 ? 1.0 - st.busy / out.makespan : 0.0;
    if (!keep_ops) continue;
    st.ops.reserve(last - first + 2);
    for (std::size_t i = first; i < last; ++i)
      st.ops.push_back(timed(dag, sched, dag.stage_ops[i]));
    if (dag.dp_sync[si] >= 0) st.ops.push_back(timed(dag, sched, dag.dp_sync[si]));
    st.ops.push_back(timed(dag, sched, dag.optimizer[si]));
    sort_by_start(st.ops);
    const auto cfirst = static_cast<std::size_t>(dag.stage_comm_begin[si]);
    const auto clast = static_cast<std::size_t>(dag.stage_comm_begin[si + 1]);
    st.comm.reserve(clast - cfirst);
    for (std::size_t i = cfirst; i < clast; ++i)
      st.comm.push_back(timed(dag, sched, dag.stage_comm[i]));
    sort_by_start(st.comm);
  }
  return out;
}

CriticalPath critical_path(const ReplicaDag& dag, const Schedule& sched) {
  CriticalPath path;
  std::int32_t v = -1;
  double finish = 0.0;
  // Ties go to the later node: the optimizer/DP sync sinks, so the path ends the iteration.
  for (int i = 0; i < dag.size(); ++i) {
    const double end = sched.end(dag, i);
    if (v < 0 || end >= finish) {
      v = i;
      finish = end;
    }
  }
  for (; v >= 0; v = sched.cause[static_cast<std::size_t>(v)]) {
    const TimedOp op = timed(dag, sched, v);
    if (op.kind == OpKind::P2P || op.kind == OpKind::DpSync)
      path.comm += op.duration();
    else
      path.compute += op.duration();
    path.ops.push_back(op);
  }
  std::reverse(path.ops.begin(), path.ops.end());
  path.idle = std::max(0.0, finish - path.compute - path.comm);
  return path;
}

}  // namespace slimpack::sim_detail
