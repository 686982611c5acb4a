#include "cost/stage_split.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace slimpack {

std::vector<int> even_stage_layers(int layers, int stages) {
  const int p = std::max(1, stages);
  std::vector<int> out(static_cast<std::size_t>(p), layers / p);
  // Stage 0 keeps the most activations in flight under 1F1B: remainder layers go to the others,
  // last stages first.
  for (int k = 0, r = layers % p; k < r; ++k) ++out[static_cast<std::size_t>(p - 1 - (k % p))];
  return out;
}

std::vector<int> balanced_stage_layers(int layers, double layer_work,
                                       const std::vector<double>& extra) {
  const int p = std::max<int>(1, static_cast<int>(extra.size()));
  if (layers < p || !(layer_work > 0.0)) return even_stage_layers(layers, p);
  auto capacity = [&](double limit, std::vector<int>* out) {
    long total = 0;
    for (int s = 0; s < p; ++s) {
      const double room = (limit - extra[static_cast<std::size_t>(s)]) / layer_work;
      const int n = static_cast<int>(std::floor(room + 1e-9));
      if (n < 1) return -1L;
      if (out) (*out)[static_cast<std::size_t>(s)] = std::min(n, layers);
      total += std::min(n, layers);
    }
    return total;
  };
  // The optimal maximum is n * layer_work + extra[s] for some stage s and count n: scan them.
  std::vector<double> limits;
  limits.reserve(static_cast<std::size_t>(layers) * static_cast<std::size_t>(p));
  for (int s = 0; s < p; ++s)
    for (int n = 1; n <= layers; ++n)
      limits.push_back(n * layer_work + extra[static_cast<std::size_t>(s)]);
  std::sort(limits.begin(), limits.end());
  std::size_t lo = 0, hi = limits.size() - 1;
  while (lo < hi) {  // the smallest feasible limit (capacity is monotone in the limit)
    const std::size_t mid = (lo + hi) / 2;
    if (capacity(limits[mid], nullptr) >= layers)
      hi = mid;
    else
      lo = mid + 1;
  }
  std::vector<int> n(static_cast<std::size_t>(p), 1);
  if (capacity(limits[lo], &n) < layers) return even_stage_layers(layers, p);
  int surplus = -layers;
  for (int v : n) surplus += v;
  while (surplus-- > 0) {
    int busiest = -1;
    double most = -1.0;
    for (int s = 0; s < p; ++s) {
      const auto si = static_cast<std::size_t>(s);
      if (n[si] <= 1) continue;
      const double w = n[si] * layer_work + extra[si];
      if (w > most + 1e-12 * std::max(1.0, most)) {
        most = w;
        busiest = s;
      }
    }
    --n[static_cast<std::size_t>(busiest)];
  }
  return n;
}

Expected<StageSplitSpec> parse_stage_split(const std::string& text) {
  if (text == "auto") return StageSplitSpec{true, {}};
  if (text == "even") return StageSplitSpec{false, {}};
  StageSplitSpec spec{false, {}};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    int v = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v < 1)
      return Error::bad_field("stage layers",
                              "'" + item +
                                  "' is not a positive layer count (expected even, auto or a list "
                                  "such as 7,8,8,9)");
    spec.explicit_layers.push_back(v);
    start = comma + 1;
  }
  return spec;
}

std::string stage_split_name(const StageSplitSpec& spec) {
  if (spec.explicit_layers.empty()) return spec.is_auto ? "auto" : "even";
  std::string out;
  for (int v : spec.explicit_layers) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

}  // namespace slimpack
