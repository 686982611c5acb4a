#include "cuda/pack_shapes.h"

#include <algorithm>

#include "cost/flops.h"

namespace slimpack::profiling {

std::int64_t pack_tokens(const PackShape& shape) {
  std::int64_t n = 0;
  for (const auto& s : shape.segments) n += s.length;
  return n;
}

double pack_pairs(const PackShape& shape) {
  double pairs = 0.0;
  for (const auto& s : shape.segments)
    pairs += flops::causal_pairs(static_cast<double>(s.length), static_cast<double>(s.offset));
  return pairs;
}

std::int64_t pack_context_tokens(const PackShape& shape) {
  std::int64_t n = 0;
  for (const auto& s : shape.segments) n += s.offset + s.length;
  return n;
}

std::string describe(const PackShape& shape) {
  std::string out = shape.family + ":";
  std::size_t i = 0;
  bool first = true;
  while (i < shape.segments.size()) {
    std::size_t j = i;
    while (j < shape.segments.size() && shape.segments[j].offset == shape.segments[i].offset &&
           shape.segments[j].length == shape.segments[i].length)
      ++j;
    if (!first) out += "+";
    out += std::to_string(j - i) + "x" + std::to_string(shape.segments[i].length) + "@" +
           std::to_string(shape.segments[i].offset);
    first = false;
    i = j;
  }
  return out;
}

namespace {

PackShape repeated(const std::string& family, std::int64_t count, std::int64_t length,
                   std::int64_t offset) {
  PackShape p;
  p.family = family;
  p.segments.assign(static_cast<std::size_t>(count), PackSegment{offset, length});
  return p;
}

}  // namespace

Expected<std::vector<PackShape>> make_sweep(const SweepOptions& o) {
  constexpr std::int64_t kGranule = 256;
  if (o.min_tokens < kGranule || o.min_tokens % kGranule != 0)
    return Error::bad_field(
        "min tokens", "" + std::to_string(o.min_tokens) + " must be a positive multiple of 256");
  if (o.max_tokens < o.min_tokens)
    return Error::bad_field("max tokens", "" + std::to_string(o.max_tokens) +
                                              " is below the minimum " +
                                              std::to_string(o.min_tokens));
  if (o.max_offset < 0) return Error::bad_field("max offset", "must not be negative");

  std::vector<std::int64_t> sizes;
  for (std::int64_t t = o.min_tokens; t <= o.max_tokens; t *= 2) sizes.push_back(t);
  if (o.quick && sizes.size() > 3) {
    // Smallest, largest and one in between keep the fit determined at a third of the cost.
    sizes = {sizes.front(), sizes[sizes.size() / 2], sizes.back()};
  }
  std::vector<std::int64_t> offsets;
  for (std::int64_t off : {8192, 16384, 65536})
    if (off <= o.max_offset) offsets.push_back(off);
  if (o.quick && offsets.size() > 1) offsets = {offsets.back()};
  const std::vector<std::int64_t> short_lengths =
      o.quick ? std::vector<std::int64_t>{512} : std::vector<std::int64_t>{256, 1024};

  std::vector<PackShape> shapes;
  for (std::int64_t t : sizes) {
    shapes.push_back(repeated("single", 1, t, 0));
    for (std::int64_t off : offsets) shapes.push_back(repeated("slice", 1, t, off));
    for (std::int64_t len : short_lengths)
      if (t / len >= 2) shapes.push_back(repeated("short", t / len, len, 0));
    if (!o.quick && t >= 2048) {
      PackShape mixed = repeated("mixed", 1, t / 2, 0);
      const auto tail = repeated("mixed", t / 2 / 512, 512, 0);
      mixed.segments.insert(mixed.segments.end(), tail.segments.begin(), tail.segments.end());
      shapes.push_back(std::move(mixed));
    }
  }
  return shapes;
}

}  // namespace slimpack::profiling
