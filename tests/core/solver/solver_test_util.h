#pragma once
// Shared helpers of the strategy tests: cost models (preset-based and hand-made linear ones),
// batches from lengths, and the invariants every plan must satisfy.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "plan/legality.h"
#include "solver/strategy.h"

namespace slimpack::test {

inline Batch batch_of(const std::vector<Tokens>& lengths) {
  Batch b;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    b.sequences.push_back({"s" + std::to_string(i), lengths[i]});
  return b;
}

// A preset cost model (Llama-3-8B on H100 unless named otherwise).
inline CostModel preset_cost(int pp, int dp, int tp = 2, const std::string& model = "llama-3-8b",
                             double memory_cap = 0.0) {
  ParallelConfig par;
  par.pp = pp;
  par.dp = dp;
  par.tp = tp;
  CostOptions opt;
  opt.memory_cap_bytes = memory_cap;
  return CostModel(model_preset(model).value(), gpu_preset("h100-sxm").value(), par, opt);
}

// A cost model with hand-set coefficients and effectively unlimited memory: per layer,
// forward = af * tokens + bf * pairs, backward = ab * tokens + bb * pairs, no constant, no head.
inline CostModel linear_cost(int pp, int dp, double af, double bf, double ab, double bb) {
  ParallelConfig par;
  par.pp = pp;
  par.dp = dp;
  par.tp = 1;
  CostOptions opt;
  opt.memory_cap_bytes = 1e18;
  opt.include_head = false;
  opt.include_dp_sync = false;
  CostModel cost(model_preset("llama-3-8b").value(), gpu_preset("h100-sxm").value(), par, opt);
  CostCoeffs c;
  c.forward = {0.0, af, bf};
  c.backward = {0.0, ab, bb};
  cost.set_coeffs(c);
  return cost;
}

// Legal under the cost model's token cap and memory, and every token of every sequence is in
// exactly one forward and one backward pack (counting DP-merged shards).
inline void expect_valid_plan(const Plan& plan, const CostModel& cost) {
  const MemoryModel mm = cost.memory_model(plan.recompute_layers);
  LegalityOptions opt;
  opt.token_cap = cost.options().token_cap;
  opt.memory = &mm;
  const LegalityReport rep = check_legality(plan, opt);
  EXPECT_TRUE(rep.legal()) << rep.summary();
  for (Pass pass : {Pass::Forward, Pass::Backward}) {
    std::vector<Tokens> seen(plan.sequences.size(), 0);
    for (const ReplicaPlan& rp : plan.replicas)
      for (const Pack& p : pass == Pass::Forward ? rp.forward : rp.backward)
        for (const Segment& s : p.segments)
          seen[static_cast<std::size_t>(s.seq)] +=
              s.tokens() / s.shards + (s.shard < s.tokens() % s.shards ? 1 : 0);
    for (std::size_t i = 0; i < seen.size(); ++i)
      EXPECT_EQ(seen[i], plan.sequences[i].length) << "sequence " << plan.sequences[i].id;
  }
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    const auto peaks = peak_memory_per_stage(plan, static_cast<int>(r), mm);
    for (double p : peaks) EXPECT_LE(p, mm.capacity_bytes);
  }
}

// Sorted ids of the sequences in one pack, for comparing with hand-made packings.
inline std::vector<std::string> pack_ids(const Plan& plan, const Pack& pack) {
  std::vector<std::string> out;
  for (const Segment& s : pack.segments)
    out.push_back(plan.sequences[static_cast<std::size_t>(s.seq)].id);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace slimpack::test
