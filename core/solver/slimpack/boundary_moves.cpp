// Phase 2 local search, long sequences: a boundary slice of a long sequence (the first or last of
// its slices inside a pack) moves to the neighbouring pack that already holds the adjacent slice
// of the same sequence. Because the slices of a sequence sit in nondecreasing forward packs (L1)
// and nonincreasing backward packs (L2), a boundary slice moved next to its neighbour keeps that
// order; readiness (L3), the token cap and the memory room are checked explicitly.
#include <algorithm>

#include "plan/schedule_order.h"
#include "solver/slimpack/model.h"

namespace slimpack::solver_detail::sp {

bool move_boundary_slice(const std::vector<Item>& items, const Shape& shape, Tokens token_cap,
                         const std::vector<double>& room, const std::vector<std::vector<int>>& fb,
                         int pass, Layout& lay) {
  const bool fwd = pass == 0;
  auto& load = fwd ? lay.fload : lay.bload;
  auto& tok = fwd ? lay.ftok : lay.btok;
  auto& packs = fwd ? lay.fpack : lay.bpack;
  if (load.empty() || lay.bpack.size() != items.size()) return false;
  const auto hi =
      static_cast<std::size_t>(std::max_element(load.begin(), load.end()) - load.begin());
  // Readiness: backward pack b may hold a sequence whose last slice is in forward pack f < this.
  auto ready = [&](int f, int b) {
    return f < forwards_before_backward(shape.schedule, shape.mf, b, shape.w);
  };
  // The best move lowers max(load[hi], load[to]) the most; the first one found wins ties.
  double best_peak = load[hi];
  std::size_t bi = 0, bj = 0;
  int bto = -1;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.merged >= 0 || !it.is_long()) continue;  // merged slices are pinned on every replica
    const std::span<const int> pk = packs[i];
    const auto k = pk.size();
    for (std::size_t j = 0; j < k; ++j) {
      if (static_cast<std::size_t>(pk[j]) != hi) continue;
      const double w = (fwd ? it.f : it.b)[j];
      const Tokens t = it.tok[j];
      if (w <= 0.0) continue;
      for (int side = 0; side < 2; ++side) {
        if ((side == 0 && j == 0) || (side == 1 && j + 1 == k)) continue;
        const int to = pk[side == 0 ? j - 1 : j + 1];
        if (static_cast<std::size_t>(to) == hi) continue;  // not a boundary slice on this side
        const auto ut = static_cast<std::size_t>(to);
        const double peak = std::max(load[hi] - w, load[ut] + w);
        if (!(peak < best_peak)) continue;
        if (token_cap > 0 && tok[ut] + t > token_cap) continue;
        if (fwd && j + 1 == k) {
          // The last slice moves: every backward pack of the sequence must still find it ready.
          bool ok = true;
          for (int b : lay.bpack[i]) ok = ok && ready(to, b);
          if (!ok) continue;
        }
        if (!fwd && !ready(lay.fpack[i].back(), to)) continue;
        best_peak = peak, bi = i, bj = j, bto = to;
      }
    }
  }
  if (bto < 0) return false;
  const Item& it = items[bi];
  const double w = (fwd ? it.f : it.b)[bj];
  const Tokens t = it.tok[bj];
  auto move = [&](std::size_t from, std::size_t to) {
    load[from] -= w, load[to] += w;
    tok[from] -= t, tok[to] += t;
    packs[bi][bj] = static_cast<int>(to);
  };
  move(hi, static_cast<std::size_t>(bto));
  if (memory_fits(lay, room, fb)) return true;
  move(static_cast<std::size_t>(bto), hi);  // undo: activations would pass the room
  return false;
}

}  // namespace slimpack::solver_detail::sp
