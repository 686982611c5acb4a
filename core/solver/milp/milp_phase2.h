#pragma once
// Exact phase 2 of the SlimPack solver for one DP replica (docs/design.md section 5): assign
// long-sequence slices and bucketed short sequences to Mf forward and Mb backward MicroPacks,
// minimising zF + zB (the largest forward pack time plus the largest backward pack time).
//
// The problem type is self-contained (plain numbers, no plan or cost-model types) so that the
// caller decides how times, tokens and bytes are priced, and so that the model, the exhaustive
// search and the checker below share one precise meaning:
//
//  * Every slice is in exactly one forward pack and one backward pack; a short bucket's `count`
//    sequences are distributed over the forward packs and, independently, over the backward packs.
//  * L1: a sequence's slices sit in non-decreasing forward pack order (index j before j+1).
//  * L2: they sit in non-increasing backward pack order (reverse order; same pack allowed).
//  * L3 (readiness, 0-based packs): a sequence may be in backward pack b only if its last slice is
//    in a forward pack <= min(Mf-1, w+b). Short sequences of a bucket are interchangeable: at most
//    as many of them are in backward packs <= b as are in forward packs <= min(Mf-1, w+b).
//  * L5: every forward and every backward pack holds at most `token_cap` tokens (0 = no cap).
//  * L4 (memory), modelled on pipeline stage 0, which holds the most packs in flight under the
//    modified 1F1B order: W0 = min(Mf, p-1+w) forwards are issued before backward pack 0, and
//    f_b = min(Mf, W0+b+1) forwards before backward pack b. While backward pack b runs, the stage
//    holds static_bytes + activations of forward packs [0, f_b) - activations of backward packs
//    [0, b) (a pack's activations are freed when its backward completes; b's own are still held).
//    This must stay <= memory_cap_bytes (0 = no cap). Forwards after the last backward are empty
//    by readiness, so these are all the peaks. Not modelled: the transient dK/dV accumulator of a
//    sliced sequence in backward and other stages' memory; the simulator checks the full plan.
//  * Pack time is additive over its items (a slice's attention cost depends only on its offset,
//    which is fixed by the slicing); a constant per-pack overhead does not change the optimum.
#include <optional>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"

namespace slimpack {

// One slice of a long (sliced) sequence. Slices of one sequence share `seq` and are numbered
// 0..k-1 by `index` (offset order); they may appear in any order in the input vector.
struct MilpSlice {
  int seq = 0;
  int index = 0;
  double fwd_time = 0.0;   // seconds on the reference stage
  double bwd_time = 0.0;   // seconds on the reference stage
  double tokens = 0.0;     // counted against the token cap
  double act_bytes = 0.0;  // activations held on stage 0 from its forward to its backward
};

// `count` whole short sequences of (about) `length` tokens, priced alike.
struct MilpShortBucket {
  double length = 0.0;  // tokens of one sequence
  int count = 0;
  double fwd_time = 0.0;   // per sequence
  double bwd_time = 0.0;   // per sequence
  double act_bytes = 0.0;  // per sequence, stage 0
};

struct MilpPhase2Solution {
  std::vector<int> slice_fwd_pack;  // [slice] -> forward pack, 0-based, parallel to input.slices
  std::vector<int> slice_bwd_pack;  // [slice] -> backward pack
  std::vector<std::vector<int>> bucket_fwd_count;  // [bucket][forward pack] -> sequences
  std::vector<std::vector<int>> bucket_bwd_count;  // [bucket][backward pack] -> sequences
  double z_f = 0.0;                                // largest forward pack time
  double z_b = 0.0;                                // largest backward pack time
};

struct MilpPhase2Input {
  std::vector<MilpSlice> slices;
  std::vector<MilpShortBucket> buckets;
  int mf = 1;                     // forward packs
  int mb = 1;                     // backward packs
  int warmup_extra = 0;           // w of the modified 1F1B order
  int pipeline_stages = 1;        // p: sets how many forwards stage 0 issues before a backward
  double token_cap = 0.0;         // per pack; 0 = none
  double memory_cap_bytes = 0.0;  // stage 0; 0 = none
  double static_bytes = 0.0;      // stage 0 weights, grads, optimizer, reserve
  double time_limit_s = 2.0;      // wall clock for the MILP search
  std::optional<MilpPhase2Solution> warm_start;  // e.g. the heuristic's packs
};

struct MilpPhase2Result {
  MilpPhase2Solution solution;
  double objective = 0.0;  // z_f + z_b of `solution`, recomputed by evaluate_phase2
  double bound = 0.0;      // proven lower bound on the optimum (<= objective)
  double gap = 0.0;        // (objective - bound) / objective, 0 when proven optimal
  bool proven_optimal = false;
  bool cancelled = false;             // the cancel token stopped the search
  bool from_warm_start_only = false;  // the search found nothing better than the warm start
  std::string status;                 // "optimal", "time limit", "cancelled", ...
  double seconds = 0.0;               // wall-clock time of the call
};

// Checks `sol` against every rule above. Returns z_f + z_b computed from the pack loads (the
// stored z_f/z_b are ignored), or +infinity with `*violation` (if given) naming the rule, pack
// and item that fail. Tolerances are relative 1e-9.
double evaluate_phase2(const MilpPhase2Input& in, const MilpPhase2Solution& sol,
                       std::string* violation);

// Fills sol.z_f and sol.z_b from the pack loads (no feasibility check).
void compute_phase2_loads(const MilpPhase2Input& in, MilpPhase2Solution& sol);

// Validates sizes and values of `in` and rules out instances that are infeasible on their face
// (a slice or short sequence larger than the token cap, static memory above the cap, a sequence
// with missing or repeated slice indices). Names the offending item and the shortfall.
Status validate_phase2_input(const MilpPhase2Input& in);

// True when the project was built with CBC (SLIMPACK_ENABLE_MILP=ON) and its module loads. The
// first call loads the module (solver/milp/milp_loader.h); nothing else maps CBC.
bool milp_available();

// Why milp_available() is false (the build, or where the module was looked for and why it did not
// load); empty when it is true.
std::string milp_unavailable_reason();

// Solves the model with COIN-OR CBC, warm-started from in.warm_start when it is feasible, under
// in.time_limit_s of wall clock. A cancelled token stops the search promptly and returns the best
// solution known (cancelled = true); Error::cancelled() only when there is none. An infeasible
// instance is Error::infeasible. Without CBC, or when its module cannot be loaded, this returns an
// Internal error saying why.
Expected<MilpPhase2Result> solve_phase2_milp(const MilpPhase2Input& in, const CancelToken& cancel,
                                             ProgressSink& progress);

// Exhaustive depth-first search with the same semantics, for tiny instances (tests). Gives up
// (BadInput) once it has visited `max_nodes` partial assignments.
Expected<MilpPhase2Result> solve_phase2_exhaustive(const MilpPhase2Input& in,
                                                   double max_nodes = 5e7);

}  // namespace slimpack
