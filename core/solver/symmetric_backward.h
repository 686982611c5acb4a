#pragma once
// The backward packs of symmetric strategies: the forward packs replayed in a legal order.
#include <vector>

#include "plan/plan.h"

namespace slimpack::solver_detail {

// Symmetric backward packs: each maximal run of forward packs chained together by sequences that
// span several of them is replayed backwards (so each sequence's slices run in reverse, L2); a run
// of length r needs r - 1 extra warm-up forwards for readiness (L3). With `global_runs` the runs
// are the union over replicas, so DP-merged segments keep the same backward index (L6).
// Fills every replica's backward list and returns the smallest legal w (capped at Mf).
int make_symmetric_backward(Plan& plan, bool global_runs);

// The order make_symmetric_backward() would give, without copying a segment: `order[r][b]` is the
// forward pack that backward pack b of replica r replays. Reads only the forward packs (and the
// sequence count and schedule) of `plan`; returns the same w.
int symmetric_backward_order(const Plan& plan, bool global_runs,
                             std::vector<std::vector<int>>& order);
// Fills every replica's backward list with copies of its forward packs in `order`.
void apply_symmetric_order(Plan& plan, const std::vector<std::vector<int>>& order);

}  // namespace slimpack::solver_detail
