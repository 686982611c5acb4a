#pragma once
// How SlimPack ranks its candidates before the simulator judges the best few: the cost model's
// own pack times on the last stage (short query blocks and DP-Merge traffic priced), the pipeline
// fill, and the layers activation recompute `auto` will have to recompute at the plan's peak of
// held tokens. Where memory is tight that recompute decides the winner: a plan that holds fewer
// tokens recomputes fewer layers and runs shorter backwards.
#include <vector>

#include "plan/plan.h"
#include "solver/pack_builder.h"

namespace slimpack::solver_detail::sp {

// The recompute a plan needs and how full it leaves the fullest stage.
struct MemoryEstimate {
  std::vector<int> recompute;  // layers per stage (estimated_recompute_layers)
  double worst_fill = 0.0;     // the fullest stage's peak bytes / cap with those layers
};
MemoryEstimate estimate_memory(const Plan& plan, const Limits& lim);

// Recomputed layers per stage the plan will run with: the recompute option's fixed counts, or for
// `auto` the fewest layers whose activations at the plan's peak of held tokens (forwards issued
// minus backwards done, in schedule order, worst replica), the dK/dV accumulator of the longest
// sliced sequence and a recomputing backward's working buffer fit the cap. A token-level
// reading of CostModel::recompute_layers: cheap enough to run on every candidate.
std::vector<int> estimated_recompute_layers(const Plan& plan, const Limits& lim);

// Estimated iteration makespan: per replica, the sum of all pack times plus (p - 1) times the
// largest forward and backward pack, on the last stage with the most recomputed layers of any
// stage (a stage that recomputes more is the bottleneck); the worst replica.
double estimate_plan(const Plan& plan, const Limits& lim);
// The same with the recomputed layers per stage already estimated.
double estimate_plan(const Plan& plan, const Limits& lim, const std::vector<int>& recompute);

}  // namespace slimpack::solver_detail::sp
