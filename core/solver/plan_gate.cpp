#include "solver/plan_gate.h"

#include <algorithm>
#include <cstdint>

namespace slimpack::solver_detail {

Plan plan_skeleton(const SolveInput& input, const std::string& strategy, Tokens slice_size) {
  Plan plan;
  const ParallelConfig& par = input.cost->parallel();
  plan.stages = std::max(1, par.pp);
  plan.schedule = input.params.schedule;
  plan.vchunks = plan.schedule == ScheduleKind::Interleaved ? std::max(1, input.params.vchunks) : 1;
  plan.slice_size = slice_size;
  plan.strategy = strategy;
  plan.sequences = input.batch.sequences;
  plan.replicas.assign(static_cast<std::size_t>(std::max(1, par.dp)), ReplicaPlan{});
  return plan;
}

Status gate_legality(Plan& plan, const Limits& lim) {
  LegalityOptions opt;
  opt.token_cap = lim.token_cap;
  MemoryModel resolved;
  opt.memory = &lim.memory;
  if (lim.cost) {
    plan.recompute_layers = lim.cost->recompute_layers(plan);
    if (std::all_of(plan.recompute_layers.begin(), plan.recompute_layers.end(),
                    [](int r) { return r == 0; }))
      plan.recompute_layers.clear();
    resolved = lim.cost->memory_model(plan.recompute_layers);
    opt.memory = &resolved;
  }
  LegalityReport rep = check_legality(plan, opt, 4);
  if (rep.legal()) return Status::success();
  const Violation& v = rep.violations.front();
  if (v.rule == Rule::L4 || v.rule == Rule::L5) {
    InfeasibleDetail detail;
    detail.limit = v.rule == Rule::L4 ? Limit::StageMemory : Limit::TokenCap;
    detail.stage = v.stage;
    detail.replica = v.replica;
    detail.needed = v.needed;
    detail.cap = v.cap;
    return Error::infeasible(rep.summary(), detail);
  }
  return Error::internal("strategy '" + plan.strategy +
                         "' built an illegal plan: " + rep.summary());
}

Tokens max_pack_tokens(const Plan& plan) {
  Tokens best = 0;
  for (const auto& rp : plan.replicas)
    for (const auto& p : rp.forward) best = std::max(best, p.tokens());
  return best;
}

std::string describe_counts(const Plan& plan) {
  std::size_t mf_min = SIZE_MAX, mf_max = 0, mb_min = SIZE_MAX, mb_max = 0;
  for (const auto& rp : plan.replicas) {
    mf_min = std::min(mf_min, rp.forward.size());
    mf_max = std::max(mf_max, rp.forward.size());
    mb_min = std::min(mb_min, rp.backward.size());
    mb_max = std::max(mb_max, rp.backward.size());
  }
  auto range = [](std::size_t a, std::size_t b) {
    return a == b ? std::to_string(a) : std::to_string(a) + ".." + std::to_string(b);
  };
  return "Mf=" + range(mf_min, mf_max) + " Mb=" + range(mb_min, mb_max) +
         " w=" + std::to_string(plan.warmup_extra);
}

}  // namespace slimpack::solver_detail
