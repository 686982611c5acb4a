#pragma once
// The whole of a length file as consecutive batches: what `slimpack dataset` walks and what
// `--batch-index N` picks one of (docs/file-formats-lengths.md, "A file as batches"). The file is
// cut in file order, not shuffled, so batch N is the same for every seed and every tool: a batch
// closes at the first sequence that reaches or crosses the token budget (sample_batch's rule), or
// after `count` sequences; the last batch takes what remains, so every sequence is in exactly one.
#include <cstdint>
#include <vector>

#include "common/sequence.h"
#include "common/status.h"
#include "workload/lengths.h"

namespace slimpack {

// Pool positions [begin, end) of one batch.
struct BatchRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  bool operator==(const BatchRange&) const = default;
};

// The batches of the pool by `spec` (its seed is not used). A spec without budget and count is one
// batch of the whole pool. Errors name the pool's source.
Expected<std::vector<BatchRange>> cut_pool(const LengthPool& pool, const BatchSpec& spec);

// The sequences of one range, ids "s0"... in batch order, `sample` their position in the pool.
Batch batch_of_range(const LengthPool& pool, const BatchRange& range);

}  // namespace slimpack
