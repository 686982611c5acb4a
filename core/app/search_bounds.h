#pragma once
// Lower bounds a configuration's simulated figures cannot go below, whatever plan a strategy
// builds (docs/search.md, "Bounds"). `slimpack search` rules a configuration out with them before
// any solve when an evaluated configuration already beats them: the bounds are exact, so the
// pruned search has the same front as the exhaustive one (tested).
#include "common/sequence.h"
#include "cost/cost_model.h"

namespace slimpack {

struct SearchBound {
  // Iteration time: on the slowest stage, a replica's forward and backward work with perfect
  // balance over the d replicas, no bubble, no exposed context-parallel exchange and the least
  // recomputation the option allows, plus one pack's constant.
  double iteration_time = 0.0;
  // Peak memory: a stage's static bytes plus the activations of the longest sequence, all held
  // between its last forward and its first backward, at the most recomputation the option allows
  // and split over the largest DP-Merge group.
  double peak_memory_bytes = 0.0;
};

SearchBound search_bound(const CostModel& cost, const Batch& batch);

}  // namespace slimpack
