// Batches drawn from a length pool: seeded sampling with replacement, by token budget or count.
#include <algorithm>

#include "workload/length_values.h"
#include "workload/lengths.h"
#include "workload/rng.h"

namespace slimpack {
namespace {

// `samples[i]` is the pool index sequence i was drawn at (empty: the pool's order).
Batch make_batch(const std::vector<Tokens>& lengths, const std::vector<std::int64_t>& samples) {
  Batch b;
  b.sequences.reserve(lengths.size());
  for (std::size_t i = 0; i < lengths.size(); ++i)
    b.sequences.push_back({"s" + std::to_string(i), lengths[i],
                           samples.empty() ? static_cast<std::int64_t>(i) : samples[i]});
  return b;
}

}  // namespace

Expected<Batch> sample_batch(const LengthPool& pool, const BatchSpec& spec) {
  const std::string& src = pool.source;
  if (pool.lengths.empty()) return Error::bad_input(src + ": the length pool is empty");
  if (spec.token_budget < 0)
    return Error::bad_input(src + ": token budget " + std::to_string(spec.token_budget) +
                            " is negative");
  if (spec.count < 0)
    return Error::bad_input(src + ": sequence count " + std::to_string(spec.count) +
                            " is negative");
  if (spec.token_budget == 0 && spec.count == 0)
    return Error::bad_input(src + ": give a token budget or a sequence count for the batch");

  // The budget can need at most ceil(budget / shortest) draws: refuse it up front rather than run
  // out of memory on a budget of 10^18 tokens.
  const Tokens shortest = *std::min_element(pool.lengths.begin(), pool.lengths.end());
  const std::int64_t max_draws =
      spec.token_budget > 0
          // ceil without budget + shortest - 1, which overflows for a budget near INT64_MAX
          ? spec.token_budget / shortest + (spec.token_budget % shortest != 0 ? 1 : 0)
          : spec.count;
  if (max_draws > workload::kMaxPoolSequences)
    return Error::bad_input(src + ": the batch could need " + std::to_string(max_draws) +
                            " sequences, more than the maximum " +
                            std::to_string(workload::kMaxPoolSequences));

  workload::Rng rng(spec.seed);
  const auto n = static_cast<std::uint64_t>(pool.lengths.size());
  std::vector<Tokens> picked;
  std::vector<std::int64_t> at;
  auto draw = [&] {
    const std::uint64_t k = rng.below(n);
    at.push_back(static_cast<std::int64_t>(k));
    picked.push_back(pool.lengths[k]);
  };
  if (spec.token_budget > 0) {
    // Stop at the first sequence that reaches or crosses the budget (the header's rule).
    Tokens total = 0;
    while (total < spec.token_budget) {
      draw();
      total += picked.back();
    }
  } else {
    picked.reserve(static_cast<std::size_t>(spec.count));
    at.reserve(static_cast<std::size_t>(spec.count));
    for (std::int64_t i = 0; i < spec.count; ++i) draw();
  }
  return make_batch(picked, at);
}

Batch batch_from_pool(const LengthPool& pool) {
  return make_batch(pool.lengths, {});
}

}  // namespace slimpack
