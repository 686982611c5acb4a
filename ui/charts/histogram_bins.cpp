#include "charts/histogram_bins.h"

#include <algorithm>
#include <bit>

namespace slimpack::ui {
namespace {
int bin_of(Tokens n) {
  return n < 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(n)) - 1;  // floor(log2 n)
}
}  // namespace

std::vector<LengthBin> log2_bins(const std::vector<Tokens>& lengths) {
  if (lengths.empty()) return {};
  const auto [mn, mx] = std::minmax_element(lengths.begin(), lengths.end());
  const int first = bin_of(*mn);
  const int last = bin_of(*mx);
  std::vector<LengthBin> bins(static_cast<std::size_t>(last - first + 1));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    bins[i].lo = Tokens{1} << (first + static_cast<int>(i));
    bins[i].hi = bins[i].lo * 2;
  }
  for (Tokens n : lengths) {
    LengthBin& b = bins[static_cast<std::size_t>(bin_of(n) - first)];
    ++b.count;
    b.tokens += n;
  }
  return bins;
}

}  // namespace slimpack::ui
