#pragma once
// The common start and end of every strategy: the plan skeleton, and the legality gate each plan
// passes before it is returned.
#include <string>

#include "plan/plan.h"
#include "solver/limits.h"
#include "solver/strategy.h"

namespace slimpack::solver_detail {

// A plan with the common fields of every strategy filled in and `replicas` empty lists.
Plan plan_skeleton(const SolveInput& input, const std::string& strategy, Tokens slice_size);

// Legality gate every strategy passes its plan through. It first sets the plan's recomputed
// layers per stage (CostModel::recompute_layers: for `auto` the fewest that fit) and checks
// memory with them; memory (L4) and token cap (L5) violations become Infeasible, anything else
// is an Internal error (a solver bug).
Status gate_legality(Plan& plan, const Limits& lim);

// Largest forward pack in tokens (per shard) over all replicas.
Tokens max_pack_tokens(const Plan& plan);

// Replica of the heaviest estimated work, and the sums used by strategies' notes.
std::string describe_counts(const Plan& plan);

}  // namespace slimpack::solver_detail
