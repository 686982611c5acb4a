#include "app/search_bounds.h"

#include <algorithm>
#include <cmath>

namespace slimpack {
namespace {

// The layers a backward recomputes at the least: what `full` and `N` force; none for `selective`
// (no priced extra time) and `auto` (it recomputes only what memory needs).
int least_recomputed(const CostModel& cost, int stage) {
  const RecomputeSpec& spec = cost.options().recompute;
  const int layers = cost.layers_on_stage(stage);
  if (spec.mode == RecomputeMode::Full) return layers;
  if (spec.mode == RecomputeMode::Layers) return std::min(spec.layers, layers);
  return 0;
}

// One pass of `tokens` tokens and `pairs` pairs on a stage without the context-parallel exchange:
// time() is affine in tokens and pairs except for that exchange, which is never negative.
double affine_time(const CostModel& cost, Pass pass, int stage, double tokens, double pairs,
                   int recomputed) {
  const double layers = cost.layers_on_stage(stage);
  double t = cost.time(pass, stage, tokens, pairs, recomputed) -
             layers * cost.cp_ring_time(pass, tokens, pairs);
  if (pass == Pass::Backward && recomputed > 0)
    t -= std::min<double>(recomputed, layers) * cost.cp_ring_time(Pass::Forward, tokens, pairs);
  return t;
}

}  // namespace

SearchBound search_bound(const CostModel& cost, const Batch& batch) {
  SearchBound b;
  double tokens = 0.0, pairs = 0.0;
  Tokens longest = 0;
  for (const Sequence& seq : batch.sequences) {
    const double n = static_cast<double>(seq.length);
    tokens += n;
    pairs += n * (n + 1.0) / 2.0;
    longest = std::max(longest, seq.length);
  }
  const ParallelConfig& par = cost.parallel();
  const double d = std::max(1, par.dp);
  // The replica with the most work has at least the mean and at least one pack, and each stage
  // runs its packs one after another: its busy time is a lower bound of the iteration.
  for (int s = 0; s < par.pp; ++s) {
    const double busy =
        affine_time(cost, Pass::Forward, s, tokens / d, pairs / d, 0) +
        affine_time(cost, Pass::Backward, s, tokens / d, pairs / d, least_recomputed(cost, s));
    b.iteration_time = std::max(b.iteration_time, busy);
  }
  // DP-Merge splits a sequence over at most min(d, 8) replicas (a power of two).
  int shards = 1;
  while (shards * 2 <= std::min(par.dp, 8)) shards *= 2;
  const MemoryModel mm = cost.memory_model(cost.max_recompute_layers());
  const double held = std::ceil(static_cast<double>(longest) / shards);
  for (std::size_t s = 0; s < mm.static_bytes.size(); ++s) {
    const double act = s < mm.activation_per_token.size() ? mm.activation_per_token[s] : 0.0;
    b.peak_memory_bytes = std::max(b.peak_memory_bytes, mm.static_bytes[s] + act * held);
  }
  return b;
}

}  // namespace slimpack
