#include "workload/batch_cut.h"

#include <string>

namespace slimpack {

Expected<std::vector<BatchRange>> cut_pool(const LengthPool& pool, const BatchSpec& spec) {
  const std::string& src = pool.source;
  if (pool.lengths.empty()) return Error::bad_input(src + ": the length pool is empty");
  if (spec.token_budget < 0 || spec.count < 0)
    return Error::bad_input(src + ": the batch size must not be negative");
  const auto n = static_cast<std::int64_t>(pool.lengths.size());
  std::vector<BatchRange> out;
  if (spec.token_budget == 0 && spec.count == 0) {
    out.push_back({0, n});
    return out;
  }
  std::int64_t begin = 0;
  Tokens total = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    total += pool.lengths[static_cast<std::size_t>(i)];
    // The budget wins when both are given, as in sample_batch.
    const bool full =
        spec.token_budget > 0 ? total >= spec.token_budget : i + 1 - begin >= spec.count;
    if (full) {
      out.push_back({begin, i + 1});
      begin = i + 1;
      total = 0;
    }
  }
  if (begin < n) out.push_back({begin, n});
  return out;
}

Batch batch_of_range(const LengthPool& pool, const BatchRange& range) {
  Batch b;
  b.sequences.reserve(static_cast<std::size_t>(range.end - range.begin));
  for (std::int64_t i = range.begin; i < range.end; ++i)
    b.sequences.push_back(
        {"s" + std::to_string(i - range.begin), pool.lengths[static_cast<std::size_t>(i)], i});
  return b;
}

}  // namespace slimpack
