// Per-replica results from a schedule: timed ops per lane, busy time, bubble ratio, makespan and
// finish; the cross-replica DP sync barrier; the critical path.
#include <algorithm>

#include "sim/dag.h"

namespace slimpack::sim_detail {
namespace {

TimedOp timed(const ReplicaDag& dag, const Schedule& sched, std::int32_t v) {
  const auto i = static_cast<std::size_t>(v);
  const DagNode& n = dag.nodes[i];
  TimedOp op;
  op.start = sched.start(i);
  op.end = op.start + sched.duration(i);
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
      barrier = std::max(barrier, schedules[r].start(static_cast<std::size_t>(sync)));
      any = true;
    }
    if (!any) continue;
    for (std::size_t r = 0; r < dags.size(); ++r) {
      const std::int32_t sync = dags[r].dp_sync[si];
      if (sync < 0) continue;
      Schedule& sched = schedules[r];
      // The sync keeps its cause (the local last backward); the wait shows up as idle time.
      sched.times[static_cast<std::size_t>(sync)].start = barrier;
      const double sync_end = sched.end(static_cast<std::size_t>(sync));
      NodeTime& opt = sched.times[static_cast<std::size_t>(dags[r].optimizer[si])];
      if (sync_end > opt.start) {
        opt.start = sync_end;
        opt.cause = sync;
      }
    }
  }
}

ReplicaResult collect_replica(const Plan& plan, const ReplicaDag& dag, const Schedule& sched,
                              bool keep_ops, std::int32_t* last_node) {
  ReplicaResult out;
  const int p = dag.stages;
  out.stages.resize(static_cast<std::size_t>(p));
  for (const Pack& pack : plan.replicas[static_cast<std::size_t>(dag.replica)].forward)
    out.tokens += pack.tokens();

  // One pass over every node for finish, makespan and the op the critical path starts from.
  // Ties go to the later node: the optimizer/DP sync sinks, so the path ends the iteration.
  const DagNode* nodes = dag.nodes.data();
  const NodeTime* times = sched.times;
  std::int32_t last = -1;
  double finish = 0.0, makespan = 0.0;
  for (int v = 0; v < dag.size(); ++v) {
    const double end = times[v].start + times[v].duration;
    if (last < 0 || end >= finish) {
      last = v;
      finish = end;
    }
    if (is_compute(nodes[v].kind)) makespan = std::max(makespan, end);
  }
  out.finish = finish;
  out.makespan = makespan;
  if (last_node) *last_node = last;

  for (int s = 0; s < p; ++s) {
    const auto si = static_cast<std::size_t>(s);
    StageResult& st = out.stages[si];
    const auto first = static_cast<std::size_t>(dag.stage_ops_begin[si]);
    const auto end = static_cast<std::size_t>(dag.stage_ops_begin[si + 1]);
    const auto cfirst = static_cast<std::size_t>(dag.stage_comm_begin[si]);
    const auto cend = static_cast<std::size_t>(dag.stage_comm_begin[si + 1]);
    if (keep_ops) {
      // Exact sizes up front, pages populated in one call rather than faulted in one by one.
      const std::size_t n_ops = end - first + (dag.dp_sync[si] >= 0 ? 1 : 0) + 1;
      st.ops.reserve(n_ops);
      prefault_for_write(st.ops.data(), n_ops * sizeof(TimedOp));
      st.comm.reserve(cend - cfirst);
      prefault_for_write(st.comm.data(), (cend - cfirst) * sizeof(TimedOp));
    }
    for (std::size_t i = first; i < end; ++i) {
      const std::int32_t v = dag.stage_ops[i];
      st.busy += times[v].duration;
      if (keep_ops) st.ops.push_back(timed(dag, sched, v));
    }
    st.bubble_ratio = out.makespan > 0.0 ? 1.0 - st.busy / out.makespan : 0.0;
    if (!keep_ops) continue;
    // Compute ops run on one serial stream, each after its predecessor, and the DP sync and the
    // optimizer follow the last of them, so the list is already in start order; the check is a
    // cheap guard (a zero-duration op may tie) and sorts only if that ever stops holding.
    if (dag.dp_sync[si] >= 0) st.ops.push_back(timed(dag, sched, dag.dp_sync[si]));
    st.ops.push_back(timed(dag, sched, dag.optimizer[si]));
    sort_by_start(st.ops);
    // Sends are listed in stream order of their producers; forward and backward sends wait on
    // different receivers, so their starts can interleave out of order: sorted when needed.
    for (std::size_t i = cfirst; i < cend; ++i)
      st.comm.push_back(timed(dag, sched, dag.stage_comm[i]));
    sort_by_start(st.comm);
  }
  return out;
}

CriticalPath critical_path(ReplicaDag& dag, const Schedule& sched, std::int32_t last) {
  CriticalPath path;
  if (last < 0) {
    // No precomputed end: the last-finishing op, ties to the later node (as collect_replica).
    double finish = 0.0;
    for (int i = 0; i < dag.size(); ++i) {
      const double end = sched.end(static_cast<std::size_t>(i));
      if (last < 0 || end >= finish) {
        last = i;
        finish = end;
      }
    }
  }
  if (last < 0) return path;
  const double finish = sched.end(static_cast<std::size_t>(last));
  // One walk back collects the path's nodes into the dag's scratch array (a path holds each node
  // at most once): each step of a cause chain is a cache miss, so the walk is not
  // repeated. Sums keep the walk-back order; the list comes out in time order.
  std::int32_t* walk = dag.scratch.data();
  std::size_t length = 0;
  for (std::int32_t v = last; v >= 0; v = sched.cause(static_cast<std::size_t>(v)))
    walk[length++] = v;
  path.ops.resize(length);
  for (std::size_t i = 0; i < length; ++i) {
    const TimedOp op = timed(dag, sched, walk[i]);
    if (op.kind == OpKind::P2P || op.kind == OpKind::DpSync)
      path.comm += op.duration();
    else
      path.compute += op.duration();
    path.ops[length - 1 - i] = op;
  }
  path.idle = std::max(0.0, finish - path.compute - path.comm);
  return path;
}

}  // namespace slimpack::sim_detail
