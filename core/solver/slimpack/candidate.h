#pragma once
// SlimPack candidates (internal): one (S, Mf, Mb, w, long share) setting built for every replica,
// estimated from its pack layouts, and turned into a plan only when the selection step simulates
// it (most candidates are ruled out by their estimate, and at 4M tokens a plan costs as much to
// build and free as the layouts do).
#include <optional>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "solver/slimpack/estimate.h"
#include "solver/slimpack/model.h"
#include "solver/strategy.h"

namespace slimpack::solver_detail::sp {

struct Candidate {
  Shape shape;
  bool asymmetric = true;
  const std::vector<std::vector<Item>>* items = nullptr;  // owned by the caller, per replica
  // The packs: asymmetric candidates own theirs; a symmetric one points at the forward packs of
  // its shape (shared by the kinds built on it, owned by the caller) or, when those are not
  // shared (DP-merged pins), owns them.
  std::vector<Layout> layouts;
  const std::vector<Layout>* shared_forward = nullptr;
  Plan plan;                 // filled by materialize()
  bool planned = false;      // `plan` is built
  double estimate = 0.0;     // estimated iteration makespan (seconds)
  double memory_fill = 0.0;  // estimated peak / cap of the fullest stage (estimate.h)
  int local_ops = 0;
  Tokens token_cap = 0;  // the pack capacity it was built with (its slice family's)
  // Index (in the pool as built) of an earlier symmetric candidate whose forward packs came out
  // the same (another long share that never bound): the same plan, so it is neither estimated
  // nor simulated again. -1 when none.
  int twin = -1;
  int built_index = -1;  // its index in the pool as built
  std::string label;     // "S=8192 Mf=16 Mb=16 w=1 share=1.00"
};

// Buffers the estimate reuses from one candidate to the next (a plan skeleton whose packs keep
// their capacity, the figures, the symmetric backward order).
struct EstimateScratch {
  Plan plan;
  std::vector<Pack> spare;  // packs a smaller Mf left over, with their segment buffers
  PlanFigures figures;
  std::vector<std::vector<int>> order;
};

struct BuildContext {
  const SolveInput* input = nullptr;
  const Phase1* phase1 = nullptr;
  const Limits* limits = nullptr;
  const TimeLines* lines = nullptr;
  Tokens token_cap = 0;  // L5 (hard) and the memory-derived pack size (soft) combined
  int local_ops = 64;
  int max_w_tries = 6;
  EstimateScratch* scratch = nullptr;  // may be null (a scratch of its own per estimate)
  // forward_order() of each replica's items (may be null: computed per build).
  const std::vector<ForwardOrder>* forward_orders = nullptr;
};

// How a candidate's backward packs are made.
enum class BackwardKind {
  Symmetric,   // the forward packs replayed in a legal order (as `sliced` does)
  Asymmetric,  // built from the ready pool, Mb = Mf
  // Asymmetric with Mb = Mf - w: the w warm-up forwards (where the long sequences' slices sit)
  // get no backward partner, so the pipeline drains right after the last forward instead of
  // holding w packs of activations through a cool-down. Where memory is tight this is what lets
  // a plan hold one long sequence and little else, and recompute fewer layers.
  Drain
};

// Builds the candidate for `shape` (w is the first warm-up tried; it starts at the smallest w
// that readies some work for every backward pack and grows while a backward pack cannot be
// filled). std::nullopt with `why` when no w up to Mf works. `forward_cache` (may be null) keeps
// the forward packs of this (S, Mf, long share) for the next kind built on the same shape.
//
// `twin` (may be null): for a symmetric build, an earlier symmetric candidate of the same items
// and Mf at index `twin_index`; when the forward packs come out the same, the candidate is its
// twin's (estimate, w and label copied, `twin` set) instead of being estimated again.
std::optional<Candidate> build_candidate(const BuildContext& ctx,
                                         const std::vector<std::vector<Item>>& items, Shape shape,
                                         BackwardKind kind, std::vector<Layout>* forward_cache,
                                         std::string* why, const Candidate* twin = nullptr,
                                         int twin_index = -1);

// The estimate, memory fill and label of a candidate from its layouts (and, for a symmetric one,
// its w: the smallest legal warm-up of its backward order), without building its plan.
void estimate_candidate(const BuildContext& ctx, Candidate& cand);
// Builds the candidate's plan (the same numbers estimate_candidate() read); sets `planned`.
void materialize(const BuildContext& ctx, Candidate& cand);
// Both: what a candidate whose layouts changed (local search) needs before it is simulated.
void assemble_plan(const BuildContext& ctx, Candidate& cand);

}  // namespace slimpack::solver_detail::sp
