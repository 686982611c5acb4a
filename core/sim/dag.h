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

struct DagNode {
  double duration = 0.0;
  std::int32_t pack = -1;  // pack index for F/B/P2P, -1 otherwise
  std::int16_t stage = 0;  // stage of the op (the sending stage for P2P)
  std::int8_t chunk = 0;
  OpKind kind = OpKind::Forward;
  Pass pass = Pass::Forward;  // P2P: Forward = activations, Backward = gradients
};

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
  Array<std::int32_t> succ_begin;  // size nodes+1
  Array<std::int32_t> succ;
  // Consumed by evaluate(): the remaining in-degrees after the sweep (non-zero on a deadlock).
  Array<std::int32_t> indegree;
  // Per stage, compute node ids (F/B) in stream order: stage_ops[stage_ops_begin[s] ..).
  std::vector<std::int32_t> stage_ops_begin;
  Array<std::int32_t> stage_ops;
  // Per stage, P2P send node ids leaving that stage: stage_comm[stage_comm_begin[s] ..).
  std::vector<std::int32_t> stage_comm_begin;
  Array<std::int32_t> stage_comm;
  std::vector<std::int32_t> dp_sync;    // per stage, -1 when DP sync is not modelled
  std::vector<std::int32_t> optimizer;  // per stage

  int size() const { return static_cast<int>(nodes.size()); }
};

// Builds the DAG of one replica (docs/design.md section 6). Durations come from explicit pack times
// or the cost model; a pack with neither is BadInput naming it.
Expected<ReplicaDag> build_replica_dag(const Plan& plan, int replica, const CostModel* cost);

// Earliest start times from one Kahn sweep. `cause[v]` is the predecessor whose end set v's start
// (-1 for sources); it is what the critical path walks back through.
// The arrays live in the dag's arena.
struct Schedule {
  Array<double> start;
  Array<std::int32_t> cause;
  double end(const ReplicaDag& dag, int v) const { return start[v] + dag.nodes[v].duration; }
};

// Internal error naming up to 8 ops of a cycle when some ops can never run; Cancelled on cancel.
// Arena bytes evaluate() takes for a dag of `nodes` nodes (build_replica_dag reserves them).
inline std::size_t schedule_bytes(std::size_t nodes) {
  return Arena::bytes_for(nodes, sizeof(double)) +
         2 * Arena::bytes_for(nodes, sizeof(std::int32_t));
}

// Takes the schedule arrays from the dag's arena and counts dag.indegree down; call once per dag.
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
CriticalPath critical_path(const ReplicaDag& dag, const Schedule& sched, std::int32_t last = -1);

// Memory step function per stage and its peak, with the accounting of peak_memory_per_stage()
// (plan/legality_memory.cpp) at the simulated times. Fills the stage peaks, and
// StageResult::memory when `keep_points`.
void memory_timeline(const Plan& plan, const ReplicaDag& dag, const Schedule& sched,
                     const MemoryModel& memory, bool keep_points, ReplicaResult& out);

// "F3@stage1" (1-based pack, 0-based stage; ".c1" suffix for chunk 1 of interleaved plans).
std::string describe_node(const ReplicaDag& dag, int v);

}  // namespace slimpack::sim_detail
