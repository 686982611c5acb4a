#pragma once
// The DAG simulator of docs/design.md section 6: per replica, compute nodes F/B(stage, pack), P2P
// nodes between stages, DP sync and optimizer nodes; edges for data flow, per-stage stream order
// and last-stage readiness. Earliest start times from walking the stage streams; a cycle is a
// deadlock.
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

struct SimOptions {
  bool check_legality = true;   // run the legality checker first; illegal plans are rejected
  bool memory_timeline = true;  // fill StageResult::memory
  // Fill StageResult::peak_memory_bytes (and SimResult::peak_memory_bytes); off for callers that
  // read times only (the solver's selection), which then skip the memory sweep altogether.
  bool memory_peaks = true;
  bool keep_ops = true;  // fill StageResult::ops/comm (off for sweeps that need metrics only)
  bool critical_path = true;
  // Memory model for the timeline; when null, cost->memory_model() is used (no timeline without
  // either). Lets explicit-time what-if plans show memory too.
  const MemoryModel* memory = nullptr;
};

// `cost` may be null when every pack has an explicit time; then P2P costs plan.p2p_latency per
// transfer, there is no DP sync and memory is not modelled.
// Errors: BadInput for illegal plans (the message names the rule, pack and sequence) and for
// missing times without a cost model; Internal for a deadlock (names the ops in the cycle);
// Cancelled.
Expected<SimResult> simulate(const Plan& plan, const CostModel* cost,
                             const SimOptions& options = {},
                             const CancelToken& cancel = CancelToken::none(),
                             ProgressSink& progress = ProgressSink::none());

}  // namespace slimpack
