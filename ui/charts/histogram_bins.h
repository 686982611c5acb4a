#pragma once
// Power-of-two bins of sequence lengths for the workload histogram: lengths span 3-4 decades, so
// linear bins would put almost everything in the first bar. Qt-free so it is tested directly.
#include <cstdint>
#include <vector>

#include "common/sequence.h"

namespace slimpack::ui {

struct LengthBin {
  Tokens lo = 0;  // inclusive
  Tokens hi = 0;  // exclusive
  std::int64_t count = 0;
  Tokens tokens = 0;  // sum of the lengths in the bin (long sequences carry most of the work)
};

// Bins [2^k, 2^(k+1)) from the bin of the shortest length to the bin of the longest; empty bins in
// between are kept so the axis is continuous. Lengths < 1 go to the first bin.
std::vector<LengthBin> log2_bins(const std::vector<Tokens>& lengths);

}  // namespace slimpack::ui
