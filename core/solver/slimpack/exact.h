#pragma once
// Exact phase 2 (params.exact): each replica's packs of the chosen candidate re-solved by the MILP
// of solver/milp/milp_phase2.h, warm-started from the heuristic. Needs SLIMPACK_HAVE_MILP.
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "solver/strategy.h"

namespace slimpack::solver_detail {

// BadInput when the build has no MILP solver.
Status exact_mode_available();

// Replaces `result.plan`'s packs by the MILP's where they are legal and not slower, and fills the
// objective, bound, gap and proven_optimal of `result.stats`.
Status run_exact_phase2(const SolveInput& in, SolveResult& result, const CancelToken& cancel,
                        ProgressSink& progress);

}  // namespace slimpack::solver_detail
