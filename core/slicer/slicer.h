#pragma once
// Slices (docs/design.md section 2): with slice size S, sequence i is cut into ceil(n_i/S) slices;
// slice j covers [jS, min((j+1)S, n_i)). S = 0 means no slicing.
#include <vector>

#include "common/sequence.h"
#include "plan/plan.h"

namespace slimpack {

struct Slice {
  SeqIndex seq = 0;
  std::int32_t index = 0;  // j
  std::int32_t count = 1;  // k_i
  Tokens begin = 0;
  Tokens end = 0;
  Tokens tokens() const { return end - begin; }
  bool last() const { return index + 1 == count; }
  Segment segment() const { return Segment{seq, begin, end}; }
};

inline std::int32_t slice_count(Tokens length, Tokens slice_size) {
  if (slice_size <= 0 || length <= slice_size) return 1;
  return static_cast<std::int32_t>((length + slice_size - 1) / slice_size);
}

// Slices of one sequence in order.
std::vector<Slice> slice_sequence(SeqIndex seq, Tokens length, Tokens slice_size);
// Slices of every sequence, grouped by sequence (in sequence order, then slice order).
std::vector<Slice> slice_batch(const std::vector<Sequence>& seqs, Tokens slice_size);

// Merges a pack's segments so the slices of one sequence form one segment (sorted by seq).
void normalize_segments(std::vector<Segment>& segments);

}  // namespace slimpack
