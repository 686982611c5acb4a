// Summary statistics of a set of lengths (the `info` command and the workload panel).
#include <algorithm>
#include <cmath>

#include "workload/lengths.h"

namespace slimpack {
namespace {

// numpy's default ("linear"): the q-quantile sits at rank q*(n-1) of the sorted values and is
// interpolated between the two closest ranks.
double percentile_sorted(const std::vector<Tokens>& sorted, double q) {
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  const auto a = static_cast<double>(sorted[lo]);
  const auto b = static_cast<double>(sorted[hi]);
  return a + frac * (b - a);
}

}  // namespace

LengthStats compute_stats(const std::vector<Tokens>& lengths) {
  LengthStats s;
  if (lengths.empty()) return s;
  std::vector<Tokens> sorted = lengths;
  std::sort(sorted.begin(), sorted.end());
  s.count = static_cast<std::int64_t>(sorted.size());
  for (Tokens t : sorted) s.total_tokens += t;
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = percentile_sorted(sorted, 0.5);
  s.p99 = percentile_sorted(sorted, 0.99);
  s.mean = static_cast<double>(s.total_tokens) / static_cast<double>(s.count);
  return s;
}

}  // namespace slimpack
