#pragma once
// Pack shapes measured by slimpack-profile: a pack is a list of segments, each `length` query
// tokens of one sequence starting at `offset` (the K/V of the offset prefix is already cached, as
// for the later slices of a sliced sequence, docs/design.md section 2). The sweep varies the total
// tokens and the causal pairs independently so that a least-squares fit can tell alpha from beta.
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack::profiling {

struct PackSegment {
  std::int64_t offset = 0;  // tokens of the sequence before this segment (cached K/V)
  std::int64_t length = 0;  // query tokens of this segment
};

struct PackShape {
  std::string family;  // "single", "slice", "short", "mixed"
  std::vector<PackSegment> segments;
};

// Ntok: query tokens of all segments.
std::int64_t pack_tokens(const PackShape& shape);
// Apairs: causal query-key pairs, sum of l*o + l(l+1)/2 over the segments.
double pack_pairs(const PackShape& shape);
// K/V rows the attention reads: sum of o + l over the segments.
std::int64_t pack_context_tokens(const PackShape& shape);
// Compact label without commas, e.g. "single:1x8192@0" or "short:16x512@0" or
// "mixed:1x4096@0+8x512@0" (runs of equal segments folded).
std::string describe(const PackShape& shape);

struct SweepOptions {
  std::int64_t min_tokens = 512;
  std::int64_t max_tokens = 32768;
  std::int64_t max_offset = 65536;  // largest offset of a single-slice pack
  bool quick = false;               // fewer token sizes and families
};

// The shapes to measure: for each token size T = min_tokens * 2^k <= max_tokens, one sequence of T
// tokens at offset 0, a slice of T tokens at offsets 8192, 16384, 65536 (those <= max_offset;
// quick: the largest only), T split into short sequences of 256 and 1024 tokens (quick: 512), and a
// mixed pack of a T/2 sequence plus T/2 tokens of 512-token sequences (not in quick). Sizes must be
// multiples of 256 with min_tokens <= max_tokens.
Expected<std::vector<PackShape>> make_sweep(const SweepOptions& options);

}  // namespace slimpack::profiling
