#pragma once
// Entry points of the individual strategies (internal to the solver module); solve() in
// registry.cpp validates the input and dispatches here.
#include "solver/strategy.h"

namespace slimpack::solver_detail {

Expected<SolveResult> solve_fixed(const SolveInput& in, const CancelToken& cancel,
                                  ProgressSink& progress);
Expected<SolveResult> solve_balanced(const SolveInput& in, const CancelToken& cancel,
                                     ProgressSink& progress);
Expected<SolveResult> solve_sliced(const SolveInput& in, const CancelToken& cancel,
                                   ProgressSink& progress);
Expected<SolveResult> solve_slimpack(const SolveInput& in, const CancelToken& cancel,
                                     ProgressSink& progress);

// The slice size `sliced` uses when the parameters leave it on auto (0 = auto).
inline constexpr Tokens kDefaultSliceSize = 8192;

}  // namespace slimpack::solver_detail
