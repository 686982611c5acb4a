#pragma once
// Tiny deterministic phase-2 instances for the MILP tests, and a simple legal warm start.
#include <algorithm>
#include <random>

#include "solver/milp/milp_phase2.h"

namespace slimpack::milp_test {

// 2-3 long sequences of 2-3 slices, 1-2 short buckets of 1-3 sequences, Mf/Mb in {2,3}. Slice
// times grow with the offset (attention) and backward/forward ratios vary in [2, 2.6], so forward-
// and backward-balanced groupings differ. Caps, when drawn, lie near the
// pigeonhole limit (tokens) or below the total activations (bytes), so they bind or make the
// instance infeasible.
inline MilpPhase2Input random_instance(unsigned seed) {
  std::mt19937 rng(seed);
  auto uni = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  MilpPhase2Input in;
  const int seqs = pick(2, 3);
  for (int s = 0; s < seqs; ++s) {
    const int k = pick(2, 3);
    const double base = uni(0.8, 1.2);
    for (int j = 0; j < k; ++j) {
      const double f = base * (1.0 + 0.6 * j) + uni(0.0, 0.1);
      in.slices.push_back({s, j, f, f * uni(2.0, 2.6), 4.0, 10.0 + j});
    }
  }
  const int buckets = pick(1, 2);
  for (int b = 0; b < buckets; ++b) {
    const double f = uni(0.2, 0.7);
    in.buckets.push_back({uni(1.0, 3.0), pick(1, 3), f, f * uni(2.0, 2.4), uni(2.0, 5.0)});
  }
  in.mf = pick(2, 3);
  in.mb = pick(2, 3);
  in.warmup_extra = pick(0, 1);
  in.pipeline_stages = pick(1, 4);
  double tokens = 0.0, bytes = 0.0;
  for (const auto& s : in.slices) tokens += s.tokens, bytes += s.act_bytes;
  for (const auto& b : in.buckets) tokens += b.count * b.length, bytes += b.count * b.act_bytes;
  if (pick(0, 2) == 0)
    in.token_cap = std::max(4.0, tokens / std::min(in.mf, in.mb) * uni(1.0, 1.5));
  if (pick(0, 2) == 0) {
    in.static_bytes = 100.0;
    in.memory_cap_bytes = 100.0 + bytes * uni(0.5, 0.95);
  }
  in.time_limit_s = 30.0;  // tiny instances finish far sooner; the limit only guards a hang
  return in;
}

// Symmetric round robin: sequence s (and bucket k) wholly in forward pack f = s mod
// min(Mf, Mb + w) and backward pack min(f, Mb-1), which is never earlier than readiness allows
// (f <= Mb-1+w). Legal when no cap binds.
inline MilpPhase2Solution round_robin(const MilpPhase2Input& in) {
  MilpPhase2Solution sol;
  const int usable = std::min(in.mf, in.mb + in.warmup_extra);
  for (const auto& s : in.slices) {
    const int f = s.seq % usable;
    sol.slice_fwd_pack.push_back(f);
    sol.slice_bwd_pack.push_back(std::min(f, in.mb - 1));
  }
  for (size_t k = 0; k < in.buckets.size(); ++k) {
    const int f = static_cast<int>(k) % usable;
    sol.bucket_fwd_count.emplace_back(in.mf, 0);
    sol.bucket_bwd_count.emplace_back(in.mb, 0);
    sol.bucket_fwd_count[k][f] = in.buckets[k].count;
    sol.bucket_bwd_count[k][std::min(f, in.mb - 1)] = in.buckets[k].count;
  }
  return sol;
}

}  // namespace slimpack::milp_test
