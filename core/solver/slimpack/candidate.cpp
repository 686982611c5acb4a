#include "solver/slimpack/candidate.h"

#include <algorithm>

#include "slicer/slicer.h"
#include "solver/slimpack/estimate.h"

namespace slimpack::solver_detail::sp {

namespace {

// normalize_segments() without a second vector: sorted by (sequence, shard, begin), touching
// segments of one sequence shard merged. The keys are unique within a pack, so the order, and
// the result, are the same.
void normalize_in_place(std::vector<Segment>& segs) {
  std::sort(segs.begin(), segs.end(), [](const Segment& a, const Segment& b) {
    if (a.seq != b.seq) return a.seq < b.seq;
    if (a.shard != b.shard) return a.shard < b.shard;
    return a.begin < b.begin;
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    Segment& last = segs[out > 0 ? out - 1 : 0];
    if (out > 0 && last.seq == segs[i].seq && last.end == segs[i].begin &&
        last.shards == segs[i].shards && last.shard == segs[i].shard)
      last.end = segs[i].end;
    else
      segs[out++] = segs[i];
  }
  segs.resize(out);
}

// Appends a slice to a pack, extending the pack's last segment when the slice continues it (the
// slices of an item arrive in order): normalize_in_place() would merge them anyway.
void append_slice(std::vector<Segment>& segs, const Segment& seg) {
  if (!segs.empty()) {
    Segment& last = segs.back();
    if (last.seq == seg.seq && last.shard == seg.shard && last.shards == seg.shards &&
        last.end == seg.begin) {
      last.end = seg.end;
      return;
    }
  }
  segs.push_back(seg);
}

// Resizes a pack list to `count` empty packs, keeping the segment buffers of those that stay;
// with `spare`, packs beyond `count` are kept there (buffers and all) and reused first, so that
// estimates alternating between Mf = 101, 203 and 406 do not free and allocate them again.
void reset_packs(std::vector<Pack>& packs, int count, std::vector<Pack>* spare) {
  const auto n = static_cast<std::size_t>(count);
  if (spare != nullptr) {
    for (; packs.size() > n; packs.pop_back()) spare->push_back(std::move(packs.back()));
    for (; packs.size() < n && !spare->empty(); spare->pop_back())
      packs.push_back(std::move(spare->back()));
  }
  packs.resize(n);
  for (Pack& p : packs) p.segments.clear();
}

// The replica's packs as plan segments into `rp`, reusing its buffers (and `spare`'s, if given).
void fill_replica_plan(const std::vector<Item>& items, const Layout& lay, ReplicaPlan& rp,
                       std::vector<Pack>* spare = nullptr) {
  reset_packs(rp.forward, lay.mf, spare);
  reset_packs(rp.backward, lay.mb, spare);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    for (int j = 0; j < it.slices(); ++j) {
      const auto uj = static_cast<std::size_t>(j);
      const Segment seg{it.seq, it.cut[uj], it.cut[uj + 1], it.shards, it.shard};
      append_slice(rp.forward[static_cast<std::size_t>(lay.fpack[i][uj])].segments, seg);
      if (!lay.bpack.empty())
        append_slice(rp.backward[static_cast<std::size_t>(lay.bpack[i][uj])].segments, seg);
    }
  }
  for (auto* list : {&rp.forward, &rp.backward})
    for (Pack& p : *list) normalize_in_place(p.segments);
}

const std::vector<Layout>& forward_layouts(const Candidate& cand) {
  return cand.shared_forward != nullptr ? *cand.shared_forward : cand.layouts;
}

// The same forward pack of every slice on every replica: the same forward packs, and for a
// symmetric candidate the same plan (its backward packs and w follow from the forward ones).
bool same_forward_packs(const std::vector<Layout>& a, const std::vector<Layout>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t r = 0; r < a.size(); ++r)
    if (a[r].mf != b[r].mf || !(a[r].fpack == b[r].fpack)) return false;
  return true;
}

}  // namespace

ReplicaPlan to_replica_plan(const std::vector<Item>& items, const Layout& lay) {
  ReplicaPlan rp;
  fill_replica_plan(items, lay, rp);
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

void estimate_candidate(const BuildContext& ctx, Candidate& cand) {
  EstimateScratch own;
  EstimateScratch& scratch = ctx.scratch != nullptr ? *ctx.scratch : own;
  Plan& plan = scratch.plan;
  if (plan.replicas.empty()) plan = plan_skeleton(*ctx.input, "slimpack", 0);
  plan.slice_size = cand.shape.slice;
  const std::vector<Layout>& layouts = forward_layouts(cand);
  for (std::size_t r = 0; r < layouts.size(); ++r)
    fill_replica_plan((*cand.items)[r], layouts[r], plan.replicas[r], &scratch.spare);
  if (!cand.asymmetric)
    cand.shape.w = symmetric_backward_order(plan, !ctx.phase1->merged.empty(), scratch.order);
  plan.warmup_extra = cand.shape.w;

  PlanFigures& f = scratch.figures;
  fill_plan_figures(plan, *ctx.limits->cost, cand.asymmetric ? nullptr : &scratch.order, f);
  const MemoryEstimate memory = estimate_memory(f, *ctx.limits);
  cand.memory_fill = memory.worst_fill;
  cand.estimate = estimate_plan(f, *ctx.limits, memory.recompute);
  cand.label = "S=" + std::to_string(cand.shape.slice) + " Mf=" + std::to_string(cand.shape.mf) +
               " Mb=" + std::to_string(cand.shape.mb) + " w=" + std::to_string(cand.shape.w) +
               (cand.asymmetric ? "" : " symmetric");
}

void materialize(const BuildContext& ctx, Candidate& cand) {
  const std::vector<Layout>& layouts = forward_layouts(cand);
  cand.plan = plan_skeleton(*ctx.input, "slimpack", cand.shape.slice);
  cand.plan.warmup_extra = cand.shape.w;
  for (std::size_t r = 0; r < layouts.size(); ++r)
    fill_replica_plan((*cand.items)[r], layouts[r], cand.plan.replicas[r]);
  if (!cand.asymmetric) {
    for (auto& rp : cand.plan.replicas) rp.backward.clear();
    cand.plan.warmup_extra = make_symmetric_backward(cand.plan, !ctx.phase1->merged.empty());
  }
  cand.planned = true;
}

void assemble_plan(const BuildContext& ctx, Candidate& cand) {
  estimate_candidate(ctx, cand);
  materialize(ctx, cand);
}

std::optional<Candidate> build_candidate(const BuildContext& ctx,
                                         const std::vector<std::vector<Item>>& items, Shape shape,
                                         BackwardKind kind, std::vector<Layout>* forward_cache,
                                         std::string* why, const Candidate* twin, int twin_index) {
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
          build_forward(items[r], pins, shape, ctx.token_cap, target[r],
                        ctx.forward_orders != nullptr ? &(*ctx.forward_orders)[r] : nullptr);
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
    if (!asymmetric) {  // the forward packs are all it needs: no copy of shared ones is kept
      if (forward == &own_forward)
        cand.layouts = std::move(own_forward);
      else
        cand.shared_forward = forward;
      if (twin != nullptr && !twin->asymmetric && twin->items == &items &&
          same_forward_packs(forward_layouts(*twin), forward_layouts(cand))) {
        cand.shape.w = twin->shape.w;
        cand.estimate = twin->estimate;
        cand.memory_fill = twin->memory_fill;
        cand.label = twin->label;
        cand.twin = twin_index;
        return cand;
      }
      estimate_candidate(ctx, cand);
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
      estimate_candidate(ctx, cand);
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
