#include "solver/slimpack/estimate.h"

#include <algorithm>

#include "plan/schedule_order.h"

namespace slimpack::solver_detail::sp {
namespace {

double shard_tokens(const Pack& pack) {
  double t = 0.0;
  for (const Segment& s : pack.segments)
    t += static_cast<double>(s.tokens()) / std::max(1, s.shards);
  return t;
}

// CostModel::pack_time() from the figures: the same terms in the same order, so the same bits.
double pack_seconds(const CostModel& cost, Pass pass, int stage, const PackFigures& f,
                    int recomputed = 0) {
  if (f.fixed) return *f.fixed;
  return cost.time(pass, stage, static_cast<double>(f.tokens), f.pairs, recomputed) + f.merge;
}

// Peak tokens held on each stage (forwards issued minus backwards done), worst replica, and the
// largest backward pack in tokens.
struct HeldTokens {
  std::vector<double> peak;
  double largest_backward = 0.0;
};

HeldTokens held_tokens(const PlanFigures& plan) {
  HeldTokens out;
  out.peak.assign(static_cast<std::size_t>(plan.stages), 0.0);
  std::vector<double> ftok, btok, cum_f, cum_b;
  for (std::size_t r = 0; r < plan.forward.size(); ++r) {
    const std::vector<PackFigures>& fwd = plan.forward[r];
    const std::vector<PackFigures>& bwd = plan.backward[r];
    const int mf = static_cast<int>(fwd.size());
    const int mb = static_cast<int>(bwd.size());
    ftok.resize(fwd.size());
    btok.resize(bwd.size());
    for (std::size_t k = 0; k < ftok.size(); ++k) ftok[k] = fwd[k].shard_tokens;
    for (std::size_t k = 0; k < btok.size(); ++k) {
      btok[k] = bwd[k].shard_tokens;
      out.largest_backward = std::max(out.largest_backward, btok[k]);
    }
    // Prefix sums: tokens of the first k forward / backward packs.
    cum_f.assign(ftok.size() + 1, 0.0);
    cum_b.assign(btok.size() + 1, 0.0);
    for (std::size_t k = 0; k < ftok.size(); ++k) cum_f[k + 1] = cum_f[k] + ftok[k];
    for (std::size_t k = 0; k < btok.size(); ++k) cum_b[k + 1] = cum_b[k] + btok[k];
    const bool interleaved = plan.schedule == ScheduleKind::Interleaved && plan.vchunks > 1 &&
                             mf == mb && mf % plan.stages == 0;
    for (int s = 0; s < plan.stages; ++s) {
      double peak = 0.0;
      if (plan.schedule == ScheduleKind::GPipe) {
        peak = cum_f[ftok.size()];
      } else if (!interleaved) {
        // 1F1B (schedule_order.h): before B_b the stage has issued min(Mf, W_s + b + 1)
        // forwards, W_s = min(Mf, p - s - 1 + w); what is held peaks right before a backward
        // or after the last forwards.
        const int warm = std::min(mf, plan.stages - s - 1 + plan.warmup_extra);
        for (int b = 0; b < mb; ++b) {
          const int issued = std::min(mf, warm + b + 1);
          peak = std::max(
              peak, cum_f[static_cast<std::size_t>(issued)] - cum_b[static_cast<std::size_t>(b)]);
        }
        peak = std::max(peak, cum_f[ftok.size()] - cum_b[btok.size()]);
      } else {
        double held = 0.0;
        for (const OrderedOp& op :
             stage_order(plan.schedule, plan.stages, s, mf, mb, plan.warmup_extra, plan.vchunks)) {
          if (op.pass == Pass::Forward) {
            held += ftok[static_cast<std::size_t>(op.pack)];
            peak = std::max(peak, held);
          } else {
            held -= btok[static_cast<std::size_t>(op.pack)];
          }
        }
      }
      auto& worst = out.peak[static_cast<std::size_t>(s)];
      worst = std::max(worst, peak);
    }
  }
  return out;
}

}  // namespace

PackFigures pack_figures(const Pack& pack, const CostModel& cost, int stage) {
  PackFigures f;
  f.shard_tokens = shard_tokens(pack);
  if (stage >= 0 && static_cast<std::size_t>(stage) < pack.stage_times.size()) {
    f.fixed = pack.stage_times[static_cast<std::size_t>(stage)];
  } else if (pack.time) {
    f.fixed = *pack.time;
  } else {
    f.tokens = pack.tokens();
    f.pairs = cost.effective_pairs(pack);
    f.merge = cost.merge_comm_time(pack, stage);
  }
  return f;
}

PlanFigures plan_shape_figures(const Plan& plan) {
  PlanFigures f;
  f.stages = plan.stages;
  f.schedule = plan.schedule;
  f.vchunks = plan.vchunks;
  f.warmup_extra = plan.warmup_extra;
  for (const Sequence& s : plan.sequences)
    if (plan.slice_size > 0 && s.length > plan.slice_size)
      f.context = std::max(f.context, s.length);
  return f;
}

void fill_plan_figures(const Plan& plan, const CostModel& cost,
                       const std::vector<std::vector<int>>* symmetric_order, PlanFigures& f) {
  const PlanFigures shape = plan_shape_figures(plan);
  f.stages = shape.stages;
  f.schedule = shape.schedule;
  f.vchunks = shape.vchunks;
  f.warmup_extra = shape.warmup_extra;
  f.context = shape.context;
  const int last = plan.stages - 1;
  f.forward.resize(plan.replicas.size());
  f.backward.resize(plan.replicas.size());
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    const ReplicaPlan& rp = plan.replicas[r];
    f.forward[r].clear();
    for (const Pack& p : rp.forward) f.forward[r].push_back(pack_figures(p, cost, last));
    f.backward[r].clear();
    if (symmetric_order == nullptr) {
      for (const Pack& p : rp.backward) f.backward[r].push_back(pack_figures(p, cost, last));
    } else {  // make_symmetric_backward() copies these packs' segments: the same figures
      for (int k : (*symmetric_order)[r])
        f.backward[r].push_back(f.forward[r][static_cast<std::size_t>(k)]);
    }
  }
}

PlanFigures plan_figures(const Plan& plan, const Limits& lim) {
  PlanFigures f;
  fill_plan_figures(plan, *lim.cost, nullptr, f);
  return f;
}

MemoryEstimate estimate_memory(const PlanFigures& plan, const Limits& lim) {
  MemoryEstimate out;
  out.recompute.assign(static_cast<std::size_t>(plan.stages), 0);
  if (lim.cost == nullptr) return out;
  const CostModel& cost = *lim.cost;
  const bool search = cost.options().recompute.mode == RecomputeMode::Auto;
  if (cost.stages() != plan.stages) return out;
  if (!search) {  // fixed counts: no search, and nothing of the plan but its stage count is read
    Plan stages_only;
    stages_only.stages = plan.stages;
    out.recompute = cost.recompute_layers(stages_only);
  }
  const double cap = cost.memory_cap();
  if (cap <= 0.0) return out;
  const Tokens context = plan.context;  // the dK/dV accumulator of the longest sliced sequence
  const HeldTokens held = held_tokens(plan);
  const MemoryModel none_mm = cost.memory_model();
  const double kept = cost.activation_bytes_per_token_layer();
  const double input_only = cost.recomputed_bytes_per_token_layer();
  for (int s = 0; s < plan.stages; ++s) {
    const auto si = static_cast<std::size_t>(s);
    const int layers = cost.layers_on_stage(s);
    const double fixed_bytes = none_mm.static_bytes[si] +
                               none_mm.dkdv_per_context_token[si] * static_cast<double>(context);
    auto need = [&](int r) {
      const double working = r > 0 ? kept * held.largest_backward : 0.0;
      return fixed_bytes + (kept * (layers - r) + input_only * r) * held.peak[si] + working;
    };
    if (search) {
      int r = 0;
      while (r < layers && need(r) > cap) ++r;
      out.recompute[si] = r;
    }
    out.worst_fill = std::max(out.worst_fill, need(out.recompute[si]) / cap);
  }
  return out;
}

MemoryEstimate estimate_memory(const Plan& plan, const Limits& lim) {
  if (lim.cost == nullptr || lim.cost->stages() != plan.stages) {
    MemoryEstimate out;
    out.recompute.assign(static_cast<std::size_t>(plan.stages), 0);
    return out;
  }
  return estimate_memory(plan_figures(plan, lim), lim);
}

std::vector<int> estimated_recompute_layers(const Plan& plan, const Limits& lim) {
  return estimate_memory(plan, lim).recompute;
}

double estimate_plan(const Plan& plan, const Limits& lim) {
  const PlanFigures f = plan_figures(plan, lim);
  return estimate_plan(f, lim, estimate_memory(f, lim).recompute);
}

double estimate_plan(const Plan& plan, const Limits& lim, const std::vector<int>& recompute) {
  return estimate_plan(plan_figures(plan, lim), lim, recompute);
}

double estimate_plan(const PlanFigures& plan, const Limits& lim,
                     const std::vector<int>& recompute) {
  const CostModel& cost = *lim.cost;
  const int last = plan.stages - 1;
  int most = 0;
  for (int r : recompute) most = std::max(most, r);
  most = std::min(most, cost.layers_on_stage(last));
  double worst = 0.0;
  for (std::size_t r = 0; r < plan.forward.size(); ++r) {
    double sum = 0.0, zf = 0.0, zb = 0.0;
    for (const PackFigures& p : plan.forward[r]) {
      const double t = pack_seconds(cost, Pass::Forward, last, p);
      sum += t;
      zf = std::max(zf, t);
    }
    for (const PackFigures& p : plan.backward[r]) {
      const double t = pack_seconds(cost, Pass::Backward, last, p, most);
      sum += t;
      zb = std::max(zb, t);
    }
    worst = std::max(worst, sum + (plan.stages - 1) * (zf + zb));
  }
  return worst;
}

}  // namespace slimpack::solver_detail::sp
