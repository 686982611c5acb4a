// Earliest start times: each stage's stream is walked in order as far as its ops' predecessors
// have run, round after round over the stages; a round that moves no stage is a deadlock.
//
// Why not a topological sweep over successor lists: every op has at most three predecessors in
// fixed slots and its stage's stream fixes the order in which a stage runs them, so the streams
// are a topological order already, found without building or sorting a single edge. A send runs
// right after the op it sends (its other predecessor, the channel's previous send, ran before);
// a stage's DP sync right after its last backward, as a sweep would run it.
#include <algorithm>
#include <string>
#include <vector>

#include "plan/pack_name.h"
#include "sim/dag.h"

namespace slimpack::sim_detail {
namespace {

constexpr std::size_t kCancelEvery = 1u << 10;  // rounds between looks at the cancel token
constexpr std::size_t kMaxNamedOps = 8;

// The first predecessor in slot order that has not run, or -1.
inline std::int32_t first_pending_pred(const NodeTime* t, const NodePreds& pr) {
  for (const std::int32_t u : pr.slot)
    if (u >= 0 && pending(t[u])) return u;
  return -1;
}

// Runs v (sets its start and cause from its predecessors) and returns -1, or returns the first
// predecessor (in slot order) that has not run, leaving v pending. Ties keep the first slot (the
// critical path's rule, NodePreds).
inline std::int32_t run_node(NodeTime* t, std::int32_t v) {
  double start = 0.0;
  std::int32_t cause = -1;
  for (const std::int32_t u : t[v].preds.slot) {
    if (u < 0) continue;
    const NodeTime& tu = t[u];
    if (pending(tu)) return u;
    const double end = tu.start + tu.duration;
    if (cause < 0 || end > start) {
      start = end;
      cause = u;
    }
  }
  t[v].start = start;
  t[v].cause = cause;
  return -1;
}

// Some ops never ran: from the lowest such op, walk back through the first predecessor (in slot
// order) that never ran until a node repeats; that loop is the cycle ("X waits for Y waits for ...
// X"). Every op that never ran has such a predecessor, or it would have run.
std::string deadlock_message(const ReplicaDag& dag, std::size_t never_ran) {
  const auto n = static_cast<std::size_t>(dag.size());
  const NodeTime* t = dag.times.data();
  std::int32_t u = -1;
  for (std::size_t i = 0; i < n && u < 0; ++i)
    if (pending(t[i])) u = static_cast<std::int32_t>(i);
  std::vector<std::int32_t> position(n, -1);
  std::vector<std::int32_t> path;
  std::size_t cycle_start = 0;
  while (u >= 0) {
    position[static_cast<std::size_t>(u)] = static_cast<std::int32_t>(path.size());
    path.push_back(u);
    const std::int32_t next = first_pending_pred(t, t[u].preds);
    if (next < 0) break;  // cannot happen (see above)
    if (position[static_cast<std::size_t>(next)] >= 0) {
      cycle_start = static_cast<std::size_t>(position[static_cast<std::size_t>(next)]);
      path.push_back(next);
      break;
    }
    u = next;
  }
  std::string msg = "deadlock in replica " + std::to_string(dag.replica) + ": ";
  const std::size_t len = path.size() - cycle_start;
  for (std::size_t i = 0; i < std::min(len, kMaxNamedOps + 1); ++i) {
    if (i > 0) msg += " waits for ";
    msg += describe_node(dag, path[cycle_start + i]);
  }
  if (len > kMaxNamedOps + 1) msg += " waits for ...";
  msg += " (" + std::to_string(never_ran) + " of " + std::to_string(n) + " ops never ran)";
  return msg;
}

}  // namespace

std::string describe_node(const ReplicaDag& dag, int v) {
  const DagNode& node = dag.nodes[static_cast<std::size_t>(v)];
  auto op_name = [&](Pass pass) {
    std::string s = pack_name(pass, node.pack);
    if (dag.vchunks > 1) s += ".c" + std::to_string(node.chunk);
    return s + "@stage" + std::to_string(node.stage);
  };
  switch (node.kind) {
    case OpKind::Forward:
      return op_name(Pass::Forward);
    case OpKind::Backward:
      return op_name(Pass::Backward);
    case OpKind::P2P:
      return "send(" + op_name(node.pass) + ")";
    case OpKind::DpSync:
      return "dp_sync@stage" + std::to_string(node.stage);
    case OpKind::Optimizer:
      return "optimizer@stage" + std::to_string(node.stage);
  }
  return "op" + std::to_string(v);
}

namespace {

// One stage's walk through its stream: the next op and send, where they end, and the predecessor
// it last stopped at (looked at first in the next round: most rounds find it still pending).
struct StageWalk {
  std::int32_t next_op, op_end, next_send, send_end;
  std::int32_t sync, last_b, optimizer, blocked_on;
};

}  // namespace

Expected<Schedule> evaluate(ReplicaDag& dag, const CancelToken& cancel) {
  NodeTime* t = dag.times.data();
  const std::int32_t* ops = dag.stage_ops.data();
  const std::int32_t* comm = dag.stage_comm.data();
  std::vector<StageWalk> open;  // the stages whose streams have not finished
  open.reserve(static_cast<std::size_t>(dag.stages));
  for (std::size_t s = 0; s < static_cast<std::size_t>(dag.stages); ++s) {
    const std::int32_t sync = dag.dp_sync[s];
    open.push_back({dag.stage_ops_begin[s], dag.stage_ops_begin[s + 1], dag.stage_comm_begin[s],
                    dag.stage_comm_begin[s + 1], sync, sync >= 0 ? t[sync].preds.slot[kStream] : -1,
                    dag.optimizer[s], -1});
  }
  for (std::size_t round = 0; !open.empty(); ++round) {
    if ((round & (kCancelEvery - 1)) == 0 && cancel.cancelled()) return Error::cancelled();
    bool moved = false;
    std::size_t kept = 0;
    for (StageWalk w : open) {
      if (w.blocked_on < 0 || !pending(t[w.blocked_on])) {
        const std::int32_t first = w.next_op;
        std::int32_t i = first, c = w.next_send;
        for (; i < w.op_end; ++i) {
          const std::int32_t v = ops[i];
          if ((w.blocked_on = run_node(t, v)) >= 0) break;
          // Its send, if it has one, is the stage's next: sends are listed in stream order.
          if (c < w.send_end && t[comm[c]].preds.slot[kStream] == v) run_node(t, comm[c++]);
          if (v == w.last_b) run_node(t, w.sync);
        }
        w.next_op = i;
        w.next_send = c;
        moved |= i != first;
        if (i == w.op_end) {
          run_node(t, w.optimizer);
          moved = true;
          continue;  // closed
        }
      }
      open[kept++] = w;
    }
    open.resize(kept);
    if (!moved) break;
  }
  if (!open.empty()) {
    std::size_t never_ran = 0;
    for (const NodeTime& nt : dag.times) never_ran += pending(nt) ? 1 : 0;
    return Error::internal(deadlock_message(dag, never_ran));
  }
  return Schedule{t};
}

}  // namespace slimpack::sim_detail
