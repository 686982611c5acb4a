#pragma once
// Human-readable summaries of a simulation and a solve, printed by simulate/solve.
#include <nlohmann/json.hpp>

#include <string>

#include "plan/plan.h"
#include "sim/sim_result.h"
#include "solver/strategy.h"

namespace slimpack::cli {

void print_sim_summary(const std::string& title, const Plan& plan, const SimResult& r);
void print_solve_stats(const SolveStats& stats);
nlohmann::json solve_stats_to_json(const SolveStats& stats);
// Pack counts and slices of a plan, for summaries and JSON.
nlohmann::json plan_shape_json(const Plan& plan);

}  // namespace slimpack::cli
