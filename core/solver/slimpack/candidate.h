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
  double estimate = 0.0;  // estimated iteration makespan (seconds)
  int local_ops = 0;
  std::string label;  // "S=8192 Mf=16 Mb=16 w=1 share=1.00"
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

// Builds the candidate for `shape` (w is the first warm-up tried; it grows while a backward pack
// cannot be filled or memory does not fit). std::nullopt with `why` when no w up to Mf works.
std::optional<Candidate> build_candidate(const BuildContext& ctx,
                                         std::vector<std::vector<Item>>& items, Shape shape,
                                         bool asymmetric, std::string* why);

// Rebuilds the plan of an asymmetric candidate from its layouts.
void assemble_plan(const BuildContext& ctx, Candidate& cand);

// Estimated makespan of a plan: per replica, all estimated pack times plus (p - 1) times the
// largest forward and backward pack; the worst replica.
double estimate_plan(const Plan& plan, const TimeLines& lines);

}  // namespace slimpack::solver_detail::sp
