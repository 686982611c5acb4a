#pragma once
// Immutable results of a simulation: what the CLI prints, the GUI draws and exports write.
#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace slimpack {

enum class OpKind : std::uint8_t { Forward, Backward, P2P, DpSync, Optimizer };
const char* op_kind_name(OpKind k);

// One scheduled operation on one lane (replica, stage). Compact: the Gantt keeps millions of these.
struct TimedOp {
  double start = 0.0;
  double end = 0.0;
  std::int32_t pack = -1;  // pack index for F/B/P2P, -1 otherwise
  std::int16_t stage = 0;  // stage of the op (the sending stage for P2P)
  std::int8_t chunk = 0;   // virtual chunk (interleaved)
  OpKind kind = OpKind::Forward;
  // F/B: the pass. P2P: Forward for activations (to the next virtual stage), Backward for
  // gradients (to the previous one); the direction is not derivable from the stage when p = 2.
  Pass pass = Pass::Forward;
  double duration() const { return end - start; }
};

struct MemoryPoint {
  double time = 0.0;
  double bytes = 0.0;  // total bytes on the stage from this time on
};

struct StageResult {
  std::vector<TimedOp> ops;   // compute ops (F, B, DpSync, Optimizer) sorted by start
  std::vector<TimedOp> comm;  // P2P sends leaving this stage, sorted by start
  double busy = 0.0;          // sum of compute op durations (F and B)
  double bubble_ratio = 0.0;  // 1 - busy / makespan of the replica
  double peak_memory_bytes = 0.0;
  std::vector<MemoryPoint> memory;  // step function, sorted by time
};

// Critical path summary: the chain of ops that determines the makespan.
struct CriticalPath {
  double compute = 0.0;      // seconds on the path spent computing
  double comm = 0.0;         // in P2P / DP sync
  double idle = 0.0;         // waiting (makespan - compute - comm)
  std::vector<TimedOp> ops;  // path ops in time order (stage is set)
};

struct ReplicaResult {
  double makespan = 0.0;            // end of the last backward (before DP sync)
  double finish = 0.0;              // including DP sync and optimizer
  std::vector<StageResult> stages;  // size = plan.stages
  CriticalPath critical_path;
  Tokens tokens = 0;
};

struct SimResult {
  std::vector<ReplicaResult> replicas;
  double makespan = 0.0;        // max replica makespan
  double iteration_time = 0.0;  // max replica finish (DP sync and optimizer included)
  double bubble_ratio = 0.0;    // 1 - sum busy / (p * makespan) over replicas (averaged)
  double tokens_per_second = 0.0;
  double mfu = 0.0;                // 0 when the plan has explicit times (no cost model)
  double peak_memory_bytes = 0.0;  // max over stages and replicas
  // Per-stage work lower bound: the busiest stage's compute time (max over replicas). No
  // schedule of these packs finishes a replica's pipeline earlier, so 1 - bound / makespan is
  // what scheduling can still win (the gap).
  double stage_work_bound = 0.0;
  double gap_to_bound = 0.0;
  bool legal = true;
  std::string legality_message;  // first violation when not legal
  std::string time_unit = "s";   // "s" with a cost model, "units" for explicit-time plans
};

// Peak memory of each stage, the maximum over replicas (size = stages of replica 0): the one
// definition behind `slimpack compare`'s per-stage column, the simulate summary and the explorer.
std::vector<double> stage_peak_memory(const SimResult& result);

}  // namespace slimpack
