#pragma once
// The one percentile of figures over batches (`slimpack dataset`, `slimpack search`): nearest
// rank, the smallest value with at least q of the values at or below it, i.e. sorted[ceil(q n) - 1]
// (and sorted[0] for q n <= 1). Always one of the values, never an interpolation between two, so
// a reported p95 is a batch that exists. The median is q = 0.5: of two values, the smaller.
// (Length statistics, workload/lengths.h, interpolate as numpy does: they describe a distribution
// of samples, not batches one can simulate.)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace slimpack {

// q in [0, 1]; `values` must not be empty.
inline double nearest_rank(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

}  // namespace slimpack
