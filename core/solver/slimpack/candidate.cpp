#include "solver/slimpack/candidate.h"

#include <algorithm>

#include "slicer/slicer.h"
#include "solver/slimpack/estimate.h"

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

namespace {

// Raises shape.w to the smallest warm-up that readies work for every backward pack of every
// replica (and, for Drain, sets Mb = Mf - w). True when the shape changed.
bool raise_to_ready_warmup(const std::vector<std::vector<Item>>& items,
                           const std::vector<Layout>& forward, BackwardKind kind, Shape& shape) {
  int w = shape.w;
  for (std::size_t r = 0; r < items.size(); ++r)
    w = std::max(w, min_ready_warmup(items[r], forward[r], shape));
  if (kind == BackwardKind::Drain) {
    w = std::min(w, shape.mf - 1);
    const int mb = shape.mf - w;
    if (mb == shape.mb && w == shape.w) return false;
    shape.mb = mb;
    shape.w = w;
    return true;
  }
  if (w == shape.w) return false;
  shape.w = w;
  return true;
}

}  // namespace

void assemble_plan(const BuildContext& ctx, Candidate& cand, const std::vector<Layout>& layouts) {
  cand.plan = plan_skeleton(*ctx.input, "slimpack", cand.shape.slice);
  cand.plan.warmup_extra = cand.shape.w;
  for (std::size_t r = 0; r < layouts.size(); ++r)
    cand.plan.replicas[r] = to_replica_plan((*cand.items)[r], layouts[r]);
  if (!cand.asymmetric) {
    for (auto& rp : cand.plan.replicas) rp.backward.clear();
    cand.plan.warmup_extra = make_symmetric_backward(cand.plan, !ctx.phase1->merged.empty());
    cand.shape.w = cand.plan.warmup_extra;
  }
  const MemoryEstimate memory = estimate_memory(cand.plan, *ctx.limits);
  cand.memory_fill = memory.worst_fill;
  cand.estimate = estimate_plan(cand.plan, *ctx.limits, memory.recompute);
  cand.label = "S=" + std::to_string(cand.shape.slice) + " Mf=" + std::to_string(cand.shape.mf) +
               " Mb=" + std::to_string(cand.shape.mb) + " w=" + std::to_string(cand.shape.w) +
               (cand.asymmetric ? "" : " symmetric");
}

void assemble_plan(const BuildContext& ctx, Candidate& cand) {
  assemble_plan(ctx, cand, cand.layouts);
}

std::optional<Candidate> build_candidate(const BuildContext& ctx,
                                         std::vector<std::vector<Item>>& items, Shape shape,
                                         BackwardKind kind, std::vector<Layout>* forward_cache,
                                         std::string* why) {
  const bool asymmetric = kind != BackwardKind::Symmetric;
  Tokens context = 0;  // longest sliced sequence: bounds the dK/dV accumulator
  for (const auto& list : items)
    for (const Item& it : list)
      if (it.is_long()) context = std::max(context, it.cut.back());
  const std::vector<double> room = stage_token_room(*ctx.limits, context);
  // DP-merged slices are pinned at positions that depend on w and Mb; without them the forward
  // packs depend on (S, Mf, long share) only and are built once for every kind and every w.
  const bool pinned = !ctx.phase1->merged.empty();
  std::vector<Layout> own_forward;  // the forward packs when they are not (or cannot be) cached
  const std::vector<Layout>* forward = nullptr;
  for (int attempt = 0; attempt < ctx.max_w_tries; ++attempt) {
    shape.w = std::max(shape.w, shape.mf - shape.mb);
    const Pins pins = make_pins(items, *ctx.phase1, shape, ctx.token_cap);
    if (pinned || forward == nullptr) {
      const bool cached = !pinned && forward_cache != nullptr;
      std::vector<Layout>& target = cached ? *forward_cache : own_forward;
      if (!cached || target.empty()) {
        target.assign(items.size(), Layout{});
        for (std::size_t r = 0; r < items.size(); ++r)
          build_forward(items[r], pins, shape, ctx.token_cap, target[r]);
      }
      forward = &target;
    }
    if (asymmetric && raise_to_ready_warmup(items, *forward, kind, shape)) {
      if (pinned) continue;  // pins depend on w and Mb: build again with the new shape
      shape.w = std::max(shape.w, shape.mf - shape.mb);
    }
    Candidate cand;
    cand.asymmetric = asymmetric;
    cand.items = &items;
    cand.shape = shape;
    if (!asymmetric) {  // the forward packs are all it needs: no copy of them is kept
      assemble_plan(ctx, cand, *forward);
      return cand;
    }
    cand.layouts = *forward;
    const std::vector<std::vector<int>> fb = forwards_before(shape);
    BackwardBuild failed;
    for (std::size_t r = 0; r < items.size() && !failed.why.size(); ++r) {
      BackwardBuild built =
          build_backward(items[r], pins, shape, ctx.token_cap, room, fb, cand.layouts[r]);
      if (!built) failed = {built.failure, "replica " + std::to_string(r) + ": " + built.why};
    }
    if (failed.why.empty()) {
      for (std::size_t r = 0; r < items.size(); ++r)
        cand.local_ops +=
            local_search(items[r], shape, ctx.token_cap, room, fb, ctx.local_ops, cand.layouts[r]);
      assemble_plan(ctx, cand);
      return cand;
    }
    if (why) *why = failed.why;
    // More warm-up makes more sequences ready but holds more activations: useless when memory
    // is what failed.
    if (failed.failure == BackwardFailure::MemoryRoom || shape.w >= shape.mf) break;
    shape.w = std::min(shape.mf, shape.w == 0 ? 1 : shape.w * 2);
    if (kind == BackwardKind::Drain) shape.mb = std::max(1, shape.mf - shape.w);
  }
  return std::nullopt;
}

}  // namespace slimpack::solver_detail::sp
