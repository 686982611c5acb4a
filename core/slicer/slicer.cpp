#include "slicer/slicer.h"

#include <algorithm>

namespace slimpack {

std::vector<Slice> slice_sequence(SeqIndex seq, Tokens length, Tokens slice_size) {
  const std::int32_t k = slice_count(length, slice_size);
  std::vector<Slice> out;
  out.reserve(static_cast<std::size_t>(k));
  for (std::int32_t j = 0; j < k; ++j) {
    const Tokens begin = (k == 1) ? 0 : static_cast<Tokens>(j) * slice_size;
    const Tokens end = (k == 1) ? length : std::min(begin + slice_size, length);
    out.push_back(Slice{seq, j, k, begin, end});
  }
  return out;
}

std::vector<Slice> slice_batch(const std::vector<Sequence>& seqs, Tokens slice_size) {
  std::size_t total = 0;
  for (const auto& s : seqs) total += static_cast<std::size_t>(slice_count(s.length, slice_size));
  std::vector<Slice> out;
  out.reserve(total);
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    const Tokens n = seqs[i].length;
    const std::int32_t k = slice_count(n, slice_size);
    for (std::int32_t j = 0; j < k; ++j) {
      const Tokens begin = (k == 1) ? 0 : static_cast<Tokens>(j) * slice_size;
      const Tokens end = (k == 1) ? n : std::min(begin + slice_size, n);
      out.push_back(Slice{static_cast<SeqIndex>(i), j, k, begin, end});
    }
  }
  return out;
}

void normalize_segments(std::vector<Segment>& segments) {
  std::sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
    if (a.seq != b.seq) return a.seq < b.seq;
    if (a.shard != b.shard) return a.shard < b.shard;
    return a.begin < b.begin;
  });
  std::vector<Segment> merged;
  merged.reserve(segments.size());
  for (const auto& s : segments) {
    if (!merged.empty() && merged.back().seq == s.seq && merged.back().end == s.begin &&
        merged.back().shards == s.shards && merged.back().shard == s.shard) {
      merged.back().end = s.end;
    } else {
      merged.push_back(s);
    }
  }
  segments = std::move(merged);
}

}  // namespace slimpack
