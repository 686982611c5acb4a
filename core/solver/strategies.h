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

// The check each strategy makes before it packs anything: every sequence, placed the way the
// strategy places it (whole, in slices of S, or split over a DP-Merge group), fits a stage's memory
// and the token cap (check_sequences_fit). The strategy's solve returns this error first, so
// check_fits() (strategy.h) can rule a configuration out without a solve and say the same thing.
Status precheck_whole(const SolveInput& in);  // fixed, balanced
Status precheck_sliced(const SolveInput& in);
Status precheck_slimpack(const SolveInput& in);

// The slice size `sliced` uses when the parameters leave it on auto (0 = auto).
inline constexpr Tokens kDefaultSliceSize = 8192;

}  // namespace slimpack::solver_detail
