#pragma once
// The steps of `sliced` (internal), so that `slimpack`, which builds the sliced plan of every
// slice size of the automatic range, assigns replicas once and runs the legality gate only on the
// plans it simulates.
#include <string>
#include <vector>

#include "solver/limits.h"
#include "solver/strategy.h"
#include "solver/time_lines.h"

namespace slimpack::solver_detail {

// The replica assignment of `sliced`: LPT on each sequence's forward + backward work. It does
// not depend on the slice size.
struct SlicedAssignment {
  std::vector<std::vector<SeqIndex>> replicas;
  ReplicaLoad heaviest;  // the most tokens and work of any replica
};
SlicedAssignment sliced_assignment(const SolveInput& in, const TimeLines& lines);

// The `sliced` plan of slice size `slice` over `assignment`, before the legality gate (which sets
// the recomputed layers and must run before the plan is simulated or returned). `notes` gets the
// clamp note, if any; `capacity` the pack capacity used. The backward packs are left to
// add_sliced_backward(): `order` says which forward pack each replays (plan.warmup_extra is
// already set), so a caller that only estimates the plan copies no segments.
struct SlicedBuild {
  Plan plan;
  std::vector<std::vector<int>> order;
  std::string notes;
  Tokens capacity = 0;
};
Expected<SlicedBuild> build_sliced(const SolveInput& in, const Limits& lim, const TimeLines& lines,
                                   const SlicedAssignment& assignment, Tokens slice,
                                   const CancelToken& cancel, ProgressSink& progress);

// The symmetric backward packs of a built plan (make_symmetric_backward()'s).
void add_sliced_backward(SlicedBuild& built);

// What `sliced` writes in SolveStats::notes for a built plan.
std::string sliced_notes(const SlicedBuild& built, Tokens slice);

}  // namespace slimpack::solver_detail
