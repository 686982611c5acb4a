#include "solver/slimpack/candidate.h"

#include <algorithm>

#include "slicer/slicer.h"

namespace slimpack::solver_detail::sp {

ReplicaPlan to_replica_plan(const std::vector<Item>& items, const Layout& lay) {
  ReplicaPlan rp;
  rp.forward.assign(static_cast<std::size_t>(lay.mf), Pack{});
  rp.backward.assign(static_cast<std::size_t>(lay.mb), Pack{});
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    for (int j = 0; j < it.slices(); ++j) {
      const auto uj = static_cast<std::size_t>(j);
      const Segment seg{it.seq, it.cut[uj], it.cut[uj + 1], it.shards, it.shard};
      rp.forward[static_cast<std::size_t>(lay.fpack[i][uj])].segments.push_back(seg);
      if (!lay.bpack.empty())
        rp.backward[static_cast<std::size_t>(lay.bpack[i][uj])].segments.push_back(seg);
    }
  }
  for (auto* list : {&rp.forward, &rp.backward})
    for (Pack& p : *list) normalize_segments(p.segments);
  return rp;
}

double estimate_plan(const Plan& plan, const TimeLines& lines) {
  double worst = 0.0;
  for (const ReplicaPlan& rp : plan.replicas) {
    double sum = 0.0, zf = 0.0, zb = 0.0;
    for (const Pack& p : rp.forward) {
      const double t = estimate_pack_time(p, lines.fwd);
      sum += t;
      zf = std::max(zf, t);
    }
    for (const Pack& p : rp.backward) {
      const double t = estimate_pack_time(p, lines.bwd);
      sum += t;
      zb = std::max(zb, t);
    }
    worst = std::max(worst, sum + (plan.stages - 1) * (zf + zb));
  }
  return worst;
}

void assemble_plan(const BuildContext& ctx, Candidate& cand) {
  cand.plan = plan_skeleton(*ctx.input, "slimpack", cand.shape.slice);
  cand.plan.warmup_extra = cand.shape.w;
  for (std::size_t r = 0; r < cand.layouts.size(); ++r)
    cand.plan.replicas[r] = to_replica_plan((*cand.items)[r], cand.layouts[r]);
  if (!cand.asymmetric) {
    for (auto& rp : cand.plan.replicas) rp.backward.clear();
    cand.plan.warmup_extra = make_symmetric_backward(cand.plan, !ctx.phase1->merged.empty());
    cand.shape.w = cand.plan.warmup_extra;
  }
  cand.estimate = estimate_plan(cand.plan, *ctx.lines);
  cand.label = "S=" + std::to_string(cand.shape.slice) + " Mf=" + std::to_string(cand.shape.mf) +
               " Mb=" + std::to_string(cand.shape.mb) + " w=" + std::to_string(cand.shape.w) +
               (cand.asymmetric ? "" : " symmetric");
}

std::optional<Candidate> build_candidate(const BuildContext& ctx,
                                         std::vector<std::vector<Item>>& items, Shape shape,
                                         bool asymmetric, std::string* why) {
  Tokens context = 0;  // longest sliced sequence: bounds the dK/dV accumulator
  for (const auto& list : items)
    for (const Item& it : list)
      if (it.is_long()) context = std::max(context, it.cut.back());
  const std::vector<double> room = stage_token_room(*ctx.limits, context);
  for (int attempt = 0; attempt < ctx.max_w_tries; ++attempt) {
    shape.w = std::max(shape.w, shape.mf - shape.mb);
    const std::vector<std::vector<int>> fb = forwards_before(shape);
    const Pins pins = make_pins(items, *ctx.phase1, shape, ctx.token_cap);
    Candidate cand;
    cand.shape = shape;
    cand.asymmetric = asymmetric;
    cand.items = &items;
    cand.layouts.resize(items.size());
    bool ok = true;
    bool memory_bound = false;
    for (std::size_t r = 0; r < items.size() && ok; ++r) {
      Layout& lay = cand.layouts[r];
      build_forward(items[r], pins, shape, ctx.token_cap, lay);
      if (!asymmetric) continue;
      std::string reason;
      if (!build_backward(items[r], pins, shape, ctx.token_cap, room, fb, lay, &reason)) {
        ok = false;
        memory_bound = reason.rfind("stage", 0) == 0;
        if (why) *why = "replica " + std::to_string(r) + ": " + reason;
      }
    }
    if (ok) {
      if (asymmetric)
        for (std::size_t r = 0; r < items.size(); ++r)
          cand.local_ops += local_search(items[r], shape, ctx.token_cap, room, fb, ctx.local_ops,
                                         cand.layouts[r]);
      assemble_plan(ctx, cand);
      return cand;
    }
    // More warm-up makes more sequences ready but holds more activations: useless when memory
    // is what failed.
    if (memory_bound || shape.w >= shape.mf) break;
    shape.w = std::min(shape.mf, shape.w == 0 ? 1 : shape.w * 2);
  }
  return std::nullopt;
}

}  // namespace slimpack::solver_detail::sp
