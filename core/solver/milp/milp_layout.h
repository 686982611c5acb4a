#pragma once
// Index helpers shared by the MILP model, the exhaustive search and the checker, so that all three
// read the pipeline rules of milp_phase2.h the same way.
#include <algorithm>
#include <vector>

#include "solver/milp/milp_phase2.h"

namespace slimpack::milp_detail {

// The slices of one long sequence, as positions in MilpPhase2Input::slices ordered by index.
struct SeqSlices {
  int seq = 0;
  std::vector<int> slice_ids;
};

// Groups slices by sequence, in order of first appearance; each group is sorted by slice index.
std::vector<SeqSlices> group_slices(const MilpPhase2Input& in);

// Last forward pack (0-based) a sequence may use if any of it is in backward pack b (rule L3).
inline int ready_limit(const MilpPhase2Input& in, int b) {
  return std::min(in.mf - 1, in.warmup_extra + b);
}

// Forward packs stage 0 has issued when backward pack b starts (modified 1F1B, rule L4).
inline int stage0_forwards_before(const MilpPhase2Input& in, int b) {
  const int w0 = std::min(in.mf, in.pipeline_stages - 1 + in.warmup_extra);
  return std::min(in.mf, w0 + b + 1);
}

// a <= cap with a relative tolerance, so that sums computed in another order still compare equal.
inline bool within(double a, double cap) {
  const double scale = std::max(1.0, std::max(a < 0 ? -a : a, cap < 0 ? -cap : cap));
  return a <= cap + 1e-9 * scale;
}

}  // namespace slimpack::milp_detail
