#pragma once
// How SlimPack ranks its candidates before the simulator judges the best few: the cost model's
// own pack times on the last stage (short query blocks and DP-Merge traffic priced), the pipeline
// fill, and the layers activation recompute `auto` will have to recompute at the plan's peak of
// held tokens. Where memory is tight that recompute decides the winner: a plan that holds fewer
// tokens recomputes fewer layers and runs shorter backwards.
//
// The estimate reads a few numbers per pack (PackFigures), not the plan itself: a candidate is
// estimated from its forward packs and, for a symmetric one, the order its backward replays them
// in, so no Plan is built for the many candidates the estimate rules out.
#include <optional>
#include <vector>

#include "plan/plan.h"
#include "solver/pack_builder.h"

namespace slimpack::solver_detail::sp {

// What the estimate reads of one pack: CostModel::pack_time() on `stage` is
// time(pass, stage, tokens, pairs, recomputed) + merge, or `fixed` for an explicit time.
struct PackFigures {
  Tokens tokens = 0;          // Pack::tokens()
  double shard_tokens = 0.0;  // tokens held per shard (the activations a stage keeps)
  double pairs = 0.0;         // CostModel::effective_pairs()
  double merge = 0.0;         // CostModel::merge_comm_time() on `stage`
  std::optional<double> fixed;
};
PackFigures pack_figures(const Pack& pack, const CostModel& cost, int stage);

// The figures of a plan's packs (on its last stage) and the plan fields the estimate reads.
struct PlanFigures {
  int stages = 1;
  ScheduleKind schedule = ScheduleKind::OneFOneB;
  int vchunks = 1;
  int warmup_extra = 0;
  Tokens context = 0;  // longest sliced sequence (its dK/dV accumulator)
  std::vector<std::vector<PackFigures>> forward, backward;  // [replica][pack]
};
// The plan fields, with `forward` and `backward` left for the caller to fill.
PlanFigures plan_shape_figures(const Plan& plan);
PlanFigures plan_figures(const Plan& plan, const Limits& lim);
// The same into `f` (reusing its buffers). With `symmetric_order` (symmetric_backward_order()),
// the backward figures are the forward ones in that order and the plan's backward packs are not
// read: they need not exist yet.
void fill_plan_figures(const Plan& plan, const CostModel& cost,
                       const std::vector<std::vector<int>>* symmetric_order, PlanFigures& f);

// The recompute a plan needs and how full it leaves the fullest stage.
struct MemoryEstimate {
  std::vector<int> recompute;  // layers per stage (estimated_recompute_layers)
  double worst_fill = 0.0;     // the fullest stage's peak bytes / cap with those layers
};
MemoryEstimate estimate_memory(const Plan& plan, const Limits& lim);
MemoryEstimate estimate_memory(const PlanFigures& plan, const Limits& lim);

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
double estimate_plan(const PlanFigures& plan, const Limits& lim, const std::vector<int>& recompute);

}  // namespace slimpack::solver_detail::sp
