// Earliest start times in one Kahn sweep over the CSR graph; a cycle is reported as a deadlock.
#include <algorithm>
#include <string>

#include "sim/dag.h"

namespace slimpack::sim_detail {
namespace {

constexpr std::size_t kCancelEvery = 1u << 16;
constexpr std::size_t kMaxNamedOps = 8;

// Some ops never became ready: walk backwards through not-yet-run predecessors from one of them
// until a node repeats; that loop is the cycle ("X waits for Y waits for ... X").
std::string deadlock_message(const ReplicaDag& dag, std::size_t never_ran) {
  const auto n = static_cast<std::size_t>(dag.size());
  const NodeTime* t = dag.times.data();
  auto remaining = [&](std::size_t v) { return t[v].remaining; };
  // Reverse CSR, built only on this error path.
  std::vector<std::int32_t> pred_begin(n + 1, 0);
  for (std::size_t u = 0; u < n; ++u)
    for (auto e = t[u].succ_first; e < t[u].succ_last; ++e)
      ++pred_begin[static_cast<std::size_t>(dag.succ[static_cast<std::size_t>(e)]) + 1];
  for (std::size_t i = 0; i < n; ++i) pred_begin[i + 1] += pred_begin[i];
  std::vector<std::int32_t> preds(static_cast<std::size_t>(pred_begin[n]));
  std::vector<std::int32_t> cursor(pred_begin.begin(), pred_begin.end() - 1);
  for (std::size_t u = 0; u < n; ++u)
    for (auto e = t[u].succ_first; e < t[u].succ_last; ++e) {
      const auto v = static_cast<std::size_t>(dag.succ[static_cast<std::size_t>(e)]);
      preds[static_cast<std::size_t>(cursor[v]++)] = static_cast<std::int32_t>(u);
    }

  std::int32_t u = -1;
  for (std::size_t i = 0; i < n && u < 0; ++i)
    if (remaining(i) > 0) u = static_cast<std::int32_t>(i);
  std::vector<std::int32_t> position(n, -1);
  std::vector<std::int32_t> path;
  std::size_t cycle_start = 0;
  while (u >= 0) {
    position[static_cast<std::size_t>(u)] = static_cast<std::int32_t>(path.size());
    path.push_back(u);
    std::int32_t next = -1;
    for (auto e = pred_begin[static_cast<std::size_t>(u)];
         e < pred_begin[static_cast<std::size_t>(u) + 1]; ++e) {
      const std::int32_t w = preds[static_cast<std::size_t>(e)];
      if (remaining(static_cast<std::size_t>(w)) > 0) {
        next = w;
        break;
      }
    }
    if (next < 0) break;  // cannot happen: an op that never ran has a predecessor that never ran
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
    std::string s = (pass == Pass::Forward ? "F" : "B") + std::to_string(node.pack + 1);
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

Expected<Schedule> evaluate(ReplicaDag& dag, const CancelToken& cancel) {
  const auto n = static_cast<std::size_t>(dag.size());
  NodeTime* t = dag.times.data();
  std::int32_t* queue = dag.queue.data();
  std::size_t head = 0, tail = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (t[i].remaining == 0) queue[tail++] = static_cast<std::int32_t>(i);
  const std::int32_t* succ = dag.succ.data();
  while (head < tail) {
    if ((head & (kCancelEvery - 1)) == 0 && cancel.cancelled()) return Error::cancelled();
    const std::int32_t u = queue[head++];
    const NodeTime& tu = t[u];
    const double end = tu.start + tu.duration;
    for (std::int32_t e = tu.succ_first; e < tu.succ_last; ++e) {
      const std::int32_t v = succ[e];
      NodeTime& tv = t[v];
      // Ties keep the first predecessor dequeued (the critical paths depend on it).
      if (tv.cause < 0 || end > tv.start) {
        tv.start = end;
        tv.cause = u;
      }
      if (--tv.remaining == 0) queue[tail++] = v;
    }
  }
  if (tail < n) return Error::internal(deadlock_message(dag, n - tail));
  return Schedule{t};
}

}  // namespace slimpack::sim_detail
