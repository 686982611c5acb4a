#pragma once
// Internal to the simulator: one replica's DAG in compressed sparse row form and its evaluation.
// Everything is flat arrays of ints/doubles carved from one arena per replica, so that a million
// ops cost one allocation whose pages are touched once (a cold call is dominated by page faults).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "sim/dag_arena.h"
#include "sim/sim_result.h"

namespace slimpack::sim_detail {

// What an op is (its timing lives in NodeTime).
struct DagNode {
  std::int32_t pack = -1;  // pack index for F/B/P2P, -1 otherwise
  std::int16_t stage = 0;  // stage of the op (the sending stage for P2P)
  std::int8_t chunk = 0;
  OpKind kind = OpKind::Forward;
  Pass pass = Pass::Forward;  // P2P: Forward = activations, Backward = gradients
};

// A node's predecessors in fixed slots (-1 when absent). The slot order is the critical path's tie
// rule: when several predecessors end last together, the first slot among them is the cause.
//   compute op: the previous op on the stage's stream, the message it receives (the P2P send of
//     its activations or gradients from the neighbour stage), the forward whose activations a
//     backward uses;
//   P2P send: the op it sends, the previous send on the same channel;
//   DP sync: the stage's last backward; optimizer: the stage's last op, its DP sync.
// Last-stage readiness (a backward waits for the forwards the schedule runs before it) needs no
// slot: stage_order() issues exactly those forwards before it on the last stage
// (schedule_order_test pins that), so the stream slot carries it.
// No op has more than three, so the predecessors are a fixed-size record, not a graph in CSR form.
enum Slot : int { kStream = 0, kMessage = 1, kActivations = 2 };
struct NodePreds {
  std::int32_t slot[3];
};

// What evaluate() reads and writes per node, in one 32-byte record: running a node reads its
// predecessors and writes its start in the same cache line (the walk is bound by those misses).
// Splitting it (times apart from links, so that the results copy less) was measured slower.
struct NodeTime {
  double start;
  double duration;
  std::int32_t cause;  // the predecessor whose end set `start`; -1 for sources, kPending before
  NodePreds preds;
};
static_assert(sizeof(NodeTime) == 32, "two records per cache line");
constexpr std::int32_t kPending = -2;
inline bool pending(const NodeTime& t) {
  return t.cause == kPending;
}

struct ReplicaDag {
  int replica = 0;
  int stages = 1;
  int vchunks = 1;  // chunks actually used by the stage order (1 unless interleaved applies)
  int mf = 0;
  int mb = 0;
  // Owns every Array below and the Schedule arrays that evaluate() takes from it; moving the dag
  // keeps them valid (the block does not move).
  std::unique_ptr<Arena> arena = std::make_unique<Arena>();
  Array<DagNode> nodes;
  Array<NodeTime> times;        // same ids as nodes
  Array<std::int32_t> scratch;  // size nodes: critical_path()'s walk back
  // Per stage, compute node ids (F/B) in stream order: stage_ops[stage_ops_begin[s] ..).
  std::vector<std::int32_t> stage_ops_begin;
  Array<std::int32_t> stage_ops;
  // Per stage, P2P send node ids leaving that stage, in the stream order of the ops they send:
  // stage_comm[stage_comm_begin[s] ..).
  std::vector<std::int32_t> stage_comm_begin;
  Array<std::int32_t> stage_comm;
  std::vector<std::int32_t> dp_sync;    // per stage, -1 when DP sync is not modelled
  std::vector<std::int32_t> optimizer;  // per stage

  int size() const { return static_cast<int>(nodes.size()); }
};

// Builds the DAG of one replica (docs/design.md section 6). Durations come from explicit pack times
// or the cost model; a pack with neither is BadInput naming it.
Expected<ReplicaDag> build_replica_dag(const Plan& plan, int replica, const CostModel* cost);

// Earliest start times, kept in the dag's NodeTime records: each stage's stream is walked in order
// as far as its ops' predecessors have run, round after round over the stages. `cause(v)` is the
// predecessor whose end set v's start (-1 for sources): the first slot (NodePreds) among those
// ending last. It is what the critical path walks back through.
struct Schedule {
  NodeTime* times = nullptr;  // the dag's array
  double start(std::size_t v) const { return times[v].start; }
  double end(std::size_t v) const { return times[v].start + times[v].duration; }
  double duration(std::size_t v) const { return times[v].duration; }
  std::int32_t cause(std::size_t v) const { return times[v].cause; }
};

// Internal error naming up to 8 ops of a cycle when some ops can never run; Cancelled on cancel.
// Sets start and cause in the dag's NodeTime records; call once per dag.
Expected<Schedule> evaluate(ReplicaDag& dag, const CancelToken& cancel);

// DP gradient sync is a collective: a stage's sync cannot start before every replica finished that
// stage's last backward. Moves each replica's DP sync (and the optimizer after it) to that barrier.
void apply_dp_barrier(const std::vector<ReplicaDag>& dags, std::vector<Schedule>& schedules);

// Ops, busy time, bubble ratio, makespan and finish of one replica from its schedule.
// `last_node`, when set, receives the last-finishing op (ties to the later node) for critical_path.
ReplicaResult collect_replica(const Plan& plan, const ReplicaDag& dag, const Schedule& sched,
                              bool keep_ops, std::int32_t* last_node = nullptr);

// Walks back from the last-finishing op through the predecessors that set each start.
// compute + comm + idle equals the replica's finish.
// `last` is the op to start from (collect_replica's last_node); -1 finds it with a pass of its own.
// Uses dag.scratch (call after evaluate()).
CriticalPath critical_path(ReplicaDag& dag, const Schedule& sched, std::int32_t last = -1);

// Memory step function per stage and its peak, with the accounting of peak_memory_per_stage()
// (plan/legality_memory.cpp) at the simulated times. Fills the stage peaks, and
// StageResult::memory when `keep_points`.
void memory_timeline(const Plan& plan, const ReplicaDag& dag, const Schedule& sched,
                     const MemoryModel& memory, bool keep_points, ReplicaResult& out);

// "F3@stage1" (1-based pack, 0-based stage; ".c1" suffix for chunk 1 of interleaved plans).
std::string describe_node(const ReplicaDag& dag, int v);

}  // namespace slimpack::sim_detail
