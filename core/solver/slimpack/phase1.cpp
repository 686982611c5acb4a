// Phase 1 of SlimPack (across DP replicas): outliers, DP-Merge groups, LPT + improving swaps.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

#include "slicer/slicer.h"
#include "solver/slimpack/model.h"

namespace slimpack::solver_detail::sp {
namespace {

bool fits_memory(Tokens length, int shards, const Limits& lim) {
  const MemoryModel& mm = lim.memory;
  if (mm.capacity_bytes <= 0.0) return true;
  const double tokens = std::ceil(static_cast<double>(length) / shards);
  for (std::size_t s = 0; s < mm.static_bytes.size(); ++s)
    if (mm.static_bytes[s] + mm.activation_per_token[s] * tokens > mm.capacity_bytes) return false;
  return true;
}

// Moves or swaps sequences between the heaviest and the lightest replica while that lowers the
// heavier of the two; at most `ops` changes.
int improve_by_swaps(std::vector<std::vector<SeqIndex>>& reps, std::vector<double>& load,
                     const std::vector<double>& work, int ops) {
  const std::size_t d = reps.size();
  auto wt = [&](SeqIndex i) { return work[static_cast<std::size_t>(i)]; };
  int done = 0;
  while (done < ops) {
    const std::size_t hi =
        static_cast<std::size_t>(std::max_element(load.begin(), load.end()) - load.begin());
    const std::size_t lo =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    const double diff = load[hi] - load[lo];
    if (hi == lo || diff <= 1e-12 * load[hi]) break;
    // Best change moves delta = diff / 2 from hi to lo; any 0 < delta < diff improves.
    auto& from = reps[hi];
    auto& to = reps[lo];
    std::sort(to.begin(), to.end(), [&](SeqIndex a, SeqIndex b) { return wt(a) < wt(b); });
    double best_err = diff / 2.0;  // improvement threshold: |delta - diff/2| < diff/2
    std::size_t bx = from.size(), by = to.size();
    for (std::size_t x = 0; x < from.size(); ++x) {
      const double wx = wt(from[x]);
      if (std::abs(wx - diff / 2.0) < best_err)
        best_err = std::abs(wx - diff / 2.0), bx = x, by = to.size();
      // Swap partner y with wt(y) close to wx - diff/2.
      const double want = wx - diff / 2.0;
      auto it = std::lower_bound(to.begin(), to.end(), want,
                                 [&](SeqIndex a, double v) { return wt(a) < v; });
      for (auto cand : {it, it == to.begin() ? it : it - 1}) {
        if (cand == to.end()) continue;
        const double delta = wx - wt(*cand);
        if (delta > 0.0 && std::abs(delta - diff / 2.0) < best_err) {
          best_err = std::abs(delta - diff / 2.0);
          bx = x;
          by = static_cast<std::size_t>(cand - to.begin());
        }
      }
    }
    if (bx == from.size()) break;
    const double wx = wt(from[bx]);
    const double wy = by < to.size() ? wt(to[by]) : 0.0;
    if (by < to.size()) {
      std::swap(from[bx], to[by]);
    } else {
      to.push_back(from[bx]);
      from.erase(from.begin() + static_cast<std::ptrdiff_t>(bx));
    }
    load[hi] -= wx - wy;
    load[lo] += wx - wy;
    ++done;
  }
  for (std::size_t r = 0; r < d; ++r) std::sort(reps[r].begin(), reps[r].end());
  return done;
}

}  // namespace

Phase1 run_phase1(const Batch& batch, const std::vector<double>& work, const Limits& lim,
                  int replicas, const Phase1Options& opt) {
  const auto& seqs = batch.sequences;
  const int d = std::max(1, replicas);
  Phase1 p1;
  p1.replicas.assign(static_cast<std::size_t>(d), {});
  p1.load.assign(static_cast<std::size_t>(d), 0.0);
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  const double mean = total / d;

  std::vector<SeqIndex> order(seqs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](SeqIndex a, SeqIndex b) {
    return work[static_cast<std::size_t>(a)] > work[static_cast<std::size_t>(b)];
  });
  std::vector<char> is_merged(seqs.size(), 0);
  int max_k = 1;
  while (max_k * 2 <= std::min(d, opt.max_shards)) max_k *= 2;
  for (SeqIndex i : order) {
    const auto ui = static_cast<std::size_t>(i);
    if (d > 1 && work[ui] > kOutlierShare * mean) p1.outliers.push_back(i);
    if (!opt.dp_merge || max_k < 2) continue;
    const bool too_big = !fits_memory(seqs[ui].length, 1, lim);
    // A sequence heavier than a replica's share makes its replica the straggler whatever the
    // rest of the assignment does: only splitting it helps.
    const bool too_heavy = work[ui] > mean;
    if (!too_big && !too_heavy) continue;
    int k = 0;
    for (int c = 2; c <= max_k; c *= 2) {
      if (!fits_memory(seqs[ui].length, c, lim)) continue;
      k = c;
      if (work[ui] / c <= mean) break;
    }
    if (k == 0) continue;  // fits nowhere: check_sequences_fit reported it before phase 1
    int best = 0;
    double best_load = 0.0;
    for (int g = 0; g + k <= d; g += k) {
      const double l = *std::max_element(p1.load.begin() + g, p1.load.begin() + g + k);
      if (g == 0 || l < best_load) best_load = l, best = g;
    }
    for (int r = best; r < best + k; ++r) p1.load[static_cast<std::size_t>(r)] += work[ui] / k;
    p1.merged.push_back(MergedSeq{i, best, k});
    is_merged[ui] = 1;
  }

  if (opt.dp_aware) {
    using Entry = std::pair<double, std::size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (std::size_t r = 0; r < p1.load.size(); ++r) heap.push({p1.load[r], r});
    for (SeqIndex i : order) {
      if (is_merged[static_cast<std::size_t>(i)]) continue;
      auto [l, r] = heap.top();
      heap.pop();
      p1.replicas[r].push_back(i);
      p1.load[r] = l + work[static_cast<std::size_t>(i)];
      heap.push({p1.load[r], r});
    }
    p1.swaps = improve_by_swaps(p1.replicas, p1.load, work, opt.swap_ops);
  } else {
    std::size_t next = 0;
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      if (is_merged[i]) continue;
      const std::size_t r = next++ % p1.replicas.size();
      p1.replicas[r].push_back(static_cast<SeqIndex>(i));
      p1.load[r] += work[i];
    }
  }
  return p1;
}

std::vector<Item> make_items(const Batch& batch, const Phase1& p1, int replica, Tokens slice_size,
                             const CostModel& cost, const TimeLines& lines) {
  const auto& seqs = batch.sequences;
  std::vector<Item> items;
  items.reserve(p1.replicas[static_cast<std::size_t>(replica)].size() + p1.merged.size());
  // Each item's lists sized once (an item per sequence, thousands per replica at 4M tokens).
  auto fill = [&](Item& it, Tokens length) {
    const std::vector<Slice> slices = slice_sequence(it.seq, length, slice_size);
    it.cut.reserve(slices.size() + 1);
    it.tok.reserve(slices.size());
    it.f.reserve(slices.size());
    it.b.reserve(slices.size());
    for (const Slice& s : slices) {
      if (it.cut.empty()) it.cut.push_back(s.begin);
      it.cut.push_back(s.end);
      Segment seg{it.seq, s.begin, s.end, it.shards, it.shard};
      const Tokens n = s.tokens();
      const Tokens mine = n / it.shards + (it.shard < n % it.shards ? 1 : 0);
      const double pairs = seg.attention_pairs();  // already divided by shards
      double comm = 0.0;
      if (it.shards > 1) {
        Pack one;
        one.segments.push_back(seg);
        comm = cost.merge_comm_time(one, cost.stages() - 1);
      }
      it.tok.push_back(mine);
      it.f.push_back(lines.fwd.work(static_cast<double>(n) / it.shards, pairs) + comm);
      it.b.push_back(lines.bwd.work(static_cast<double>(n) / it.shards, pairs) + comm);
      it.f_total += it.f.back();
      it.b_total += it.b.back();
    }
  };
  for (SeqIndex i : p1.replicas[static_cast<std::size_t>(replica)]) {
    Item it;
    it.seq = i;
    fill(it, seqs[static_cast<std::size_t>(i)].length);
    items.push_back(std::move(it));
  }
  for (std::size_t m = 0; m < p1.merged.size(); ++m) {
    const MergedSeq& ms = p1.merged[m];
    if (replica < ms.first || replica >= ms.first + ms.shards) continue;
    Item it;
    it.seq = ms.seq;
    it.shards = ms.shards;
    it.shard = replica - ms.first;
    it.merged = static_cast<int>(m);
    fill(it, seqs[static_cast<std::size_t>(ms.seq)].length);
    items.push_back(std::move(it));
  }
  return items;
}

}  // namespace slimpack::solver_detail::sp
