#pragma once
// The contiguous slice layout of `sliced` (internal): a replica's slices in batch order cut into
// M packs of balanced forward time, reused by `slimpack` for its symmetric candidate.
#include <vector>

#include "common/sequence.h"
#include "plan/plan.h"
#include "solver/pack_builder.h"

namespace slimpack::solver_detail {

// Slices (size `slice_size`, 0 = whole sequences) of `members` in the given order, cut into at most
// `packs` contiguous packs that minimise the largest forward work (binary search on the bottleneck,
// then the heaviest packs are split until there are `packs` of them when the items allow), each
// within `token_cap` tokens (0 = none). Slices of one sequence in one pack form one segment.
std::vector<Pack> contiguous_packs(const std::vector<Sequence>& seqs,
                                   const std::vector<SeqIndex>& members, Tokens slice_size,
                                   int packs, Tokens token_cap, const PassLine& fwd);

}  // namespace slimpack::solver_detail
