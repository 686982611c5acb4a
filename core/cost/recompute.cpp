#include "cost/recompute.h"

#include <charconv>

namespace slimpack {

std::string recompute_name(const RecomputeSpec& spec) {
  switch (spec.mode) {
    case RecomputeMode::None:
      return "none";
    case RecomputeMode::Selective:
      return "selective";
    case RecomputeMode::Full:
      return "full";
    case RecomputeMode::Layers:
      return std::to_string(spec.layers);
    case RecomputeMode::Auto:
      return "auto";
  }
  return "none";
}

Expected<RecomputeSpec> parse_recompute(const std::string& text) {
  if (text == "none") return RecomputeSpec{RecomputeMode::None, 0};
  if (text == "selective") return RecomputeSpec{RecomputeMode::Selective, 0};
  if (text == "full") return RecomputeSpec{RecomputeMode::Full, 0};
  if (text == "auto") return RecomputeSpec{RecomputeMode::Auto, 0};
  int n = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (ec == std::errc() && ptr == end && n >= 0) {
    if (n == 0) return RecomputeSpec{RecomputeMode::None, 0};
    return RecomputeSpec{RecomputeMode::Layers, n};
  }
  return Error::bad_field(
      "recompute", "'" + text + "' is not one of none, selective, full, auto or a layer count");
}

}  // namespace slimpack
