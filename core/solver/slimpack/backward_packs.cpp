// Phase 2, backward side, built independently of the forward packs (asymmetric MicroPacks): from
// the pool of fully-forwarded sequences, the highest remaining slices first, short sequences
// filling each pack to the backward-time budget, the memory room checked incrementally.
#include <algorithm>
#include <set>

#include "plan/schedule_order.h"
#include "solver/slimpack/model.h"

namespace slimpack::solver_detail::sp {
namespace {

struct LongState {
  std::size_t item = 0;
  int next = 0;  // highest slice not yet in a backward pack; -1 when done
};

}  // namespace

bool memory_fits(const Layout& lay, const std::vector<double>& room,
                 const std::vector<std::vector<int>>& fb) {
  std::vector<double> cum_f(lay.ftok.size() + 1, 0.0);
  for (std::size_t k = 0; k < lay.ftok.size(); ++k) cum_f[k + 1] = cum_f[k] + lay.ftok[k];
  for (std::size_t s = 0; s < fb.size(); ++s) {
    double cum_b = 0.0;
    for (std::size_t b = 0; b < fb[s].size() && b < lay.btok.size(); ++b) {
      if (cum_f[static_cast<std::size_t>(fb[s][b])] - cum_b > room[s]) return false;
      cum_b += static_cast<double>(lay.btok[b]);
    }
  }
  return true;
}

int min_ready_warmup(const std::vector<Item>& items, const Layout& forward, const Shape& shape) {
  if (shape.schedule == ScheduleKind::GPipe) return 0;
  // Slices that become ready with forward pack k (their sequence's last slice is in F_k).
  std::vector<long> ready(static_cast<std::size_t>(forward.mf), 0);
  int last = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].merged >= 0) continue;
    const int k = forward.fpack[i].back();
    ready[static_cast<std::size_t>(k)] += items[i].slices();
    last = std::max(last, k);
  }
  // B_b can start after F_(w+b): w >= k_b - b, k_b the first pack by which b + 1 slices are ready.
  int w = std::max(0, last - shape.mb + 1);
  long cum = 0;
  int b = 0;
  for (int k = 0; k < forward.mf && b < shape.mb; ++k) {
    cum += ready[static_cast<std::size_t>(k)];
    for (; b < shape.mb && cum >= b + 1; ++b) w = std::max(w, k - b);
  }
  return std::min(w, shape.mf);
}

BackwardBuild build_backward(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                             Tokens token_cap, const std::vector<double>& room,
                             const std::vector<std::vector<int>>& fb, Layout& out) {
  const int mb = shape.mb;
  out.mb = mb;
  out.bpack.assign(items.size(), {});
  out.bload.assign(static_cast<std::size_t>(mb), 0.0);
  out.btok.assign(static_cast<std::size_t>(mb), 0);
  double remaining = 0.0;
  std::vector<std::size_t> order;  // unmerged items by the forward pack of their last slice
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    out.bpack[i].assign(static_cast<std::size_t>(it.slices()), -1);
    remaining += it.b_total;
    if (it.merged < 0) {
      order.push_back(i);
      continue;
    }
    for (int j = 0; j < it.slices(); ++j) {
      const int p = pins.bpack[static_cast<std::size_t>(it.merged)][static_cast<std::size_t>(j)];
      out.bpack[i][static_cast<std::size_t>(j)] = p;
      out.bload[static_cast<std::size_t>(p)] += it.b[static_cast<std::size_t>(j)];
      out.btok[static_cast<std::size_t>(p)] += it.tok[static_cast<std::size_t>(j)];
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out.fpack[a].back() < out.fpack[b].back();
  });
  std::vector<double> cum_f(out.ftok.size() + 1, 0.0);
  for (std::size_t k = 0; k < out.ftok.size(); ++k) cum_f[k + 1] = cum_f[k] + out.ftok[k];

  std::vector<LongState> longs;
  std::multiset<std::pair<double, std::size_t>> shorts;  // (backward work, item)
  std::size_t cursor = 0;
  double cum_b = 0.0;  // tokens of backward packs before the current one
  auto fail = [](BackwardFailure failure, const std::string& reason) {
    return BackwardBuild{failure, reason};
  };
  for (int b = 0; b < mb; ++b) {
    const auto ub = static_cast<std::size_t>(b);
    const int ready = forwards_before_backward(shape.schedule, shape.mf, b, shape.w);
    for (; cursor < order.size() && out.fpack[order[cursor]].back() < ready; ++cursor) {
      const std::size_t i = order[cursor];
      if (items[i].is_long())
        longs.push_back({i, items[i].slices() - 1});
      else
        shorts.insert({items[i].b[0], i});
    }
    // Held activations before B_b must fit: they only depend on earlier choices.
    for (std::size_t s = 0; s < fb.size(); ++s)
      if (cum_f[static_cast<std::size_t>(fb[s][ub])] - cum_b > room[s])
        return fail(
            BackwardFailure::MemoryRoom,
            "stage " + std::to_string(s) + " memory before backward pack B" +
                std::to_string(b + 1) + ": " +
                std::to_string(
                    static_cast<long long>(cum_f[static_cast<std::size_t>(fb[s][ub])] - cum_b)) +
                " tokens held, room for " + std::to_string(static_cast<long long>(room[s])));
    const bool last = b == mb - 1;
    const double budget = remaining / (mb - b);
    double& load = out.bload[ub];
    Tokens& tok = out.btok[ub];
    auto tok_ok = [&](Tokens t) { return token_cap <= 0 || tok + t <= token_cap || last; };
    auto take_slice = [&](LongState& ls) {
      const Item& it = items[ls.item];
      const auto j = static_cast<std::size_t>(ls.next);
      out.bpack[ls.item][j] = b;
      load += it.b[j];
      tok += it.tok[j];
      --ls.next;
    };
    auto take_short = [&](std::multiset<std::pair<double, std::size_t>>::iterator itr) {
      const std::size_t i = itr->second;
      out.bpack[i][0] = b;
      load += items[i].b[0];
      tok += items[i].tok[0];
      shorts.erase(itr);
    };
    // Tokens this pack must free so that the forwards issued before B_{b+1} fit (L4).
    double must_free = 0.0;
    if (!last)
      for (std::size_t s = 0; s < fb.size(); ++s)
        must_free =
            std::max(must_free, cum_f[static_cast<std::size_t>(fb[s][ub + 1])] - room[s] - cum_b);

    // A ready piece heavier than the whole budget can never fit a pack: it opens an empty one.
    if (!last && tok == 0) {
      LongState* heavy = nullptr;
      for (LongState& ls : longs)
        if (ls.next >= 0 &&
            (heavy == nullptr || items[ls.item].b[static_cast<std::size_t>(ls.next)] >
                                     items[heavy->item].b[static_cast<std::size_t>(heavy->next)]))
          heavy = &ls;
      const double wl = heavy ? items[heavy->item].b[static_cast<std::size_t>(heavy->next)] : 0.0;
      const double ws = shorts.empty() ? 0.0 : std::prev(shorts.end())->first;
      if (std::max(wl, ws) > budget) {
        if (heavy != nullptr && wl >= ws)
          take_slice(*heavy);
        else if (!shorts.empty())
          take_short(std::prev(shorts.end()));
      }
    }
    // Highest remaining slices first: the ready long sequence whose next slice is the heaviest
    // that still fits the budget, continuing down that sequence while it fits.
    while (true) {
      LongState* best = nullptr;
      for (LongState& ls : longs) {
        if (ls.next < 0) continue;
        const auto j = static_cast<std::size_t>(ls.next);
        const double w = items[ls.item].b[j];
        const bool fits = last || (load + w <= budget && tok_ok(items[ls.item].tok[j]));
        if (fits &&
            (best == nullptr || w > items[best->item].b[static_cast<std::size_t>(best->next)]))
          best = &ls;
      }
      if (best == nullptr) break;
      do {
        take_slice(*best);
      } while (
          best->next >= 0 &&
          (last || (load + items[best->item].b[static_cast<std::size_t>(best->next)] <= budget &&
                    tok_ok(items[best->item].tok[static_cast<std::size_t>(best->next)]))));
    }
    // Short sequences: the largest that still fits, until none does.
    while (!shorts.empty()) {
      if (last) {
        take_short(shorts.begin());
        continue;
      }
      auto itr = shorts.upper_bound({budget - load, items.size()});
      if (itr == shorts.begin()) break;
      --itr;
      if (!tok_ok(items[itr->second].tok[0])) break;
      take_short(itr);
    }
    // An empty pack would waste a pipeline slot: take the smallest ready piece over budget.
    if (tok == 0) {
      LongState* best = nullptr;
      for (LongState& ls : longs)
        if (ls.next >= 0 &&
            (best == nullptr || items[ls.item].b[static_cast<std::size_t>(ls.next)] <
                                    items[best->item].b[static_cast<std::size_t>(best->next)]))
          best = &ls;
      if (!shorts.empty())
        take_short(shorts.begin());
      else if (best != nullptr)
        take_slice(*best);
    }
    // Memory: keep freeing ready work until the next forwards fit.
    while (static_cast<double>(tok) < must_free) {
      LongState* any = nullptr;
      for (LongState& ls : longs)
        if (ls.next >= 0) any = &ls;
      if (any != nullptr)
        take_slice(*any);
      else if (!shorts.empty())
        take_short(std::prev(shorts.end()));
      else
        break;
    }
    if (tok == 0)
      return fail(BackwardFailure::NothingReady,
                  "nothing ready for backward pack B" + std::to_string(b + 1));
    std::erase_if(longs, [](const LongState& ls) { return ls.next < 0; });
    remaining -= load;
    cum_b += static_cast<double>(tok);
  }
  if (cursor < order.size() || !longs.empty() || !shorts.empty())
    return fail(BackwardFailure::LateSequences,
                "sequences not ready by the last backward pack (w too small)");
  return {};
}

}  // namespace slimpack::solver_detail::sp
