#pragma once
// What memory and the token cap allow a strategy: per-stage memory with the most recompute the
// options allow, the biggest pack, the auto pack count, and the check that every sequence fits.
#include <vector>

#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/legality.h"

namespace slimpack::solver_detail {

// Memory-derived limits of a replica's packs.
struct Limits {
  Tokens token_cap = 0;  // L5 from the cost options; 0 = unlimited
  // L4 with the most recomputation the options allow (what a plan can count on to fit); the
  // final plan is checked with the layers it really recomputes (gate_legality).
  MemoryModel memory;
  const CostModel* cost = nullptr;
  Tokens memory_pack_tokens = 0;  // biggest pack with `pp` packs in flight on stage 0; 0 = no cap
};
// The most tokens and the most estimated work any replica holds after an assignment: what sizes
// the packs of whole-sequence and sliced strategies.
struct ReplicaLoad {
  Tokens tokens = 0;
  double work = 0.0;
};
ReplicaLoad heaviest_replica(const std::vector<std::vector<SeqIndex>>& replicas,
                             const std::vector<Sequence>& seqs, const std::vector<double>& work);

Limits limits_of(const CostModel& cost);

// The most packs an automatic pack count ever gives (a bound, not a target: memory and the items
// there are decide first).
inline constexpr int kMaxAutoPacks = 1 << 20;

// Auto pack count: M = max(pp, ceil(replica_tokens / capacity)), capacity = the smaller of the
// memory capacity and the token cap (either may be 0 = unlimited).
int auto_pack_count(Tokens replica_tokens, Tokens capacity, int pp);

// The pack count that minimises the estimated makespan W + M c0 + (p - 1)(W / M + c0) of a replica
// with total work W and a per-pack constant c0 (forward + backward): M* = sqrt((p - 1) W / c0),
// never below `lower` (memory and pipeline fill) nor above `upper` (the items there are).
int balanced_pack_count(double work, double c0, int pp, int lower, int upper);

// Infeasible when one sequence cannot fit a stage's memory even split over `max_shards` replicas
// (its activations are all held between its last forward and its first backward), or when a
// piece that must stay whole (a whole sequence, or one slice of `slice_size`) exceeds the token
// cap. The message names the sequence, the stage and the shortfall in bytes.
Status check_sequences_fit(const Batch& batch, const Limits& lim, int max_shards,
                           Tokens slice_size);

}  // namespace slimpack::solver_detail
