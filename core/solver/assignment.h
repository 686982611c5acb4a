#pragma once
// Replica assignment and greedy bins: round-robin, LPT, heaviest-first order, greedy min-max.
#include <vector>

#include "common/sequence.h"
#include "plan/plan.h"

namespace slimpack::solver_detail {

// Replica assignment of sequence indices. Round-robin in the given order (a naive data loader).
std::vector<std::vector<SeqIndex>> assign_round_robin(std::size_t count, int replicas);
// Longest-processing-time first on `work`: each sequence, heaviest first, to the lightest replica.
std::vector<std::vector<SeqIndex>> assign_lpt(const std::vector<double>& work, int replicas);

// `items` ordered by decreasing work[item], ties by increasing index (a stable sort of a sorted
// list).
std::vector<SeqIndex> heaviest_first(const std::vector<double>& work,
                                     const std::vector<SeqIndex>& items);

// Greedy min-max: items in the order given (callers sort heaviest first) each go to the lightest
// bin whose token count stays within `token_cap` (0 = none); when none does, the lightest bin.
// Returns the bin of each item.
std::vector<int> greedy_min_max(const std::vector<double>& weight,
                                const std::vector<Tokens>& tokens, int bins, Tokens token_cap);

}  // namespace slimpack::solver_detail
