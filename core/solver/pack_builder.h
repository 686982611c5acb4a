#pragma once
// Helpers shared by every strategy (internal to the solver module): time estimates from the cost
// model, memory-derived pack capacity, replica assignment, greedy min-max bins, the symmetric
// backward order of sliced plans, and the final legality gate.
#include <chrono>
#include <string>
#include <vector>

#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/legality.h"
#include "plan/plan.h"
#include "solver/strategy.h"

namespace slimpack::solver_detail {

// Affine time of one pass on the bottleneck stage: c0 + per_token * N + per_pair * A. The cost
// model is affine in (tokens, pairs) per stage, so three evaluations recover it exactly and the hot
// loops of the solvers avoid virtual-free but branchy calls per item.
struct PassLine {
  double c0 = 0.0;
  double per_token = 0.0;
  double per_pair = 0.0;
  // Work of a segment without the per-pack constant.
  double work(double tokens, double pairs) const { return per_token * tokens + per_pair * pairs; }
};

struct TimeLines {
  PassLine fwd;
  PassLine bwd;
  int stage = 0;  // the stage the lines were taken from
};

// Lines of the slowest stage (the last one carries the LM head).
TimeLines time_lines(const CostModel& cost);

// Causal pairs of tokens [begin, end) of a sequence.
inline double pairs_of(Tokens begin, Tokens end) {
  const double l = static_cast<double>(end - begin);
  return l * static_cast<double>(begin) + l * (l + 1.0) / 2.0;
}

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

// Replica assignment of sequence indices. Round-robin in the given order (a naive data loader).
std::vector<std::vector<SeqIndex>> assign_round_robin(std::size_t count, int replicas);
// Longest-processing-time first on `work`: each sequence, heaviest first, to the lightest replica.
std::vector<std::vector<SeqIndex>> assign_lpt(const std::vector<double>& work, int replicas);

// `items` ordered by decreasing work[item], ties by increasing index (a stable sort of a sorted
// list).
std::vector<SeqIndex> heaviest_first(const std::vector<double>& work,
                                     const std::vector<SeqIndex>& items);

// Greedy min-max: items in the order given (callers sort heaviest first) each go to the lightest
// bin whose token count stays within `token_cap` (0 = none); when none does, the lightest bin.
// Returns the bin of each item.
std::vector<int> greedy_min_max(const std::vector<double>& weight,
                                const std::vector<Tokens>& tokens, int bins, Tokens token_cap);

// Symmetric backward packs: each maximal run of forward packs chained together by sequences that
// span several of them is replayed backwards (so each sequence's slices run in reverse, L2); a run
// of length r needs r - 1 extra warm-up forwards for readiness (L3). With `global_runs` the runs
// are the union over replicas, so DP-merged segments keep the same backward index (L6).
// Fills every replica's backward list and returns the smallest legal w (capped at Mf).
int make_symmetric_backward(Plan& plan, bool global_runs);

// A plan with the common fields of every strategy filled in and `replicas` empty lists.
Plan plan_skeleton(const SolveInput& input, const std::string& strategy, Tokens slice_size);

// Legality gate every strategy passes its plan through. It first sets the plan's recomputed
// layers per stage (CostModel::recompute_layers: for `auto` the fewest that fit) and checks
// memory with them; memory (L4) and token cap (L5) violations become Infeasible, anything else
// is an Internal error (a solver bug).
Status gate_legality(Plan& plan, const Limits& lim);

// Seconds since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Largest forward pack in tokens (per shard) over all replicas.
Tokens max_pack_tokens(const Plan& plan);

// Estimated pack time on the bottleneck stage (constant + work; DP-merge traffic not included).
double estimate_pack_time(const Pack& pack, const PassLine& line);

// Objective zF + zB (largest forward plus largest backward pack time, worst replica) and its lower
// bound (per replica: max(total work / M + constant, largest single segment) for each pass).
void fill_objective(const Plan& plan, const TimeLines& lines, SolveStats& stats);

// Replica of the heaviest estimated work, and the sums used by strategies' notes.
std::string describe_counts(const Plan& plan);

}  // namespace slimpack::solver_detail
