#pragma once
// SlimPack candidates (internal): one (S, Mf, Mb, w, long share) setting built for every replica,
// turned into a plan, estimated, and finally simulated by the selection step.
#include <optional>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "solver/slimpack/model.h"
#include "solver/strategy.h"

namespace slimpack::solver_detail::sp {

struct Candidate {
  Shape shape;
  bool asymmetric = true;
  std::vector<std::vector<Item>>* items = nullptr;  // owned by the caller, per replica
  std::vector<Layout> layouts;                      // asymmetric candidates only
  Plan plan;
  double estimate = 0.0;     // estimated iteration makespan (seconds)
  double memory_fill = 0.0;  // estimated peak / cap of the fullest stage (estimate.h)
  int local_ops = 0;
  Tokens token_cap = 0;  // the pack capacity it was built with (its slice family's)
  std::string label;     // "S=8192 Mf=16 Mb=16 w=1 share=1.00"
};

struct BuildContext {
  const SolveInput* input = nullptr;
  const Phase1* phase1 = nullptr;
  const Limits* limits = nullptr;
  const TimeLines* lines = nullptr;
  Tokens token_cap = 0;  // L5 (hard) and the memory-derived pack size (soft) combined
  int local_ops = 64;
  int max_w_tries = 6;
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
std::optional<Candidate> build_candidate(const BuildContext& ctx,
                                         std::vector<std::vector<Item>>& items, Shape shape,
                                         BackwardKind kind, std::vector<Layout>* forward_cache,
                                         std::string* why);

// Builds the plan of a candidate from its layouts (symmetric candidates keep none: the shared
// forward layouts are passed in), with its estimate and label.
void assemble_plan(const BuildContext& ctx, Candidate& cand, const std::vector<Layout>& layouts);
// Rebuilds the plan of an asymmetric candidate from its own layouts.
void assemble_plan(const BuildContext& ctx, Candidate& cand);

}  // namespace slimpack::solver_detail::sp
