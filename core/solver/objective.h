#pragma once
// The objective solvers report: zF + zB (largest forward plus largest backward pack time) and
// its lower bound, from estimated pack times.
#include "plan/plan.h"
#include "solver/strategy.h"
#include "solver/time_lines.h"

namespace slimpack::solver_detail {

// Estimated pack time on the bottleneck stage (constant + work; DP-merge traffic not included).
double estimate_pack_time(const Pack& pack, const PassLine& line);

// Objective zF + zB (largest forward plus largest backward pack time, worst replica) and its lower
// bound (per replica: max(total work / M + constant, largest single segment) for each pass).
void fill_objective(const Plan& plan, const TimeLines& lines, SolveStats& stats);

}  // namespace slimpack::solver_detail
