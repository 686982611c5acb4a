// Phase 2 local search: improving moves and swaps of short sequences between the heaviest and the
// lightest pack of each pass; when none helps, a long sequence's boundary slice moves to an
// adjacent pack (boundary_moves.cpp). Bounded by an operation count so that results are
// deterministic.
#include <algorithm>
#include <cmath>

#include "plan/schedule_order.h"
#include "solver/slimpack/model.h"

namespace slimpack::solver_detail::sp {
namespace {

struct PassView {
  std::vector<double>* load;
  std::vector<Tokens>* tok;
  SliceGrid* pack;                        // [item][slice]
  const std::vector<double> Item::*work;  // &Item::f or &Item::b
};

// True when short item i may sit in forward pack f and backward pack b (readiness, L3).
bool ready(const Shape& shape, int f, int b) {
  return f < forwards_before_backward(shape.schedule, shape.mf, b, shape.w);
}

}  // namespace

int local_search(const std::vector<Item>& items, const Shape& shape, Tokens token_cap,
                 const std::vector<double>& room, const std::vector<std::vector<int>>& fb,
                 int max_ops, Layout& lay) {
  std::vector<std::size_t> shorts;
  bool longs = false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].merged >= 0) continue;
    if (items[i].is_long())
      longs = true;
    else
      shorts.push_back(i);
  }
  if (shorts.empty() && !longs) return 0;
  PassView views[2] = {{&lay.fload, &lay.ftok, &lay.fpack, &Item::f},
                       {&lay.bload, &lay.btok, &lay.bpack, &Item::b}};
  int ops = 0;
  bool stuck[2] = {false, false};
  while (ops < max_ops && !(stuck[0] && stuck[1])) {
    for (int pass = 0; pass < 2 && ops < max_ops; ++pass) {
      if (stuck[pass]) continue;
      PassView& v = views[pass];
      auto& load = *v.load;
      auto& tok = *v.tok;
      const int hi = static_cast<int>(std::max_element(load.begin(), load.end()) - load.begin());
      const int lo = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
      const double diff = load[static_cast<std::size_t>(hi)] - load[static_cast<std::size_t>(lo)];
      if (hi == lo || diff <= 1e-12 * load[static_cast<std::size_t>(hi)]) {
        stuck[pass] = true;
        continue;
      }
      // Is item i allowed in pack `to` of this pass, given its pack in the other pass?
      auto allowed = [&](std::size_t i, int to) {
        return pass == 0 ? ready(shape, to, lay.bpack[i][0]) : ready(shape, lay.fpack[i][0], to);
      };
      std::vector<std::size_t> in_hi, in_lo;
      for (std::size_t i : shorts) {
        const int p = (*v.pack)[i][0];
        if (p == hi)
          in_hi.push_back(i);
        else if (p == lo)
          in_lo.push_back(i);
      }
      // Best change moves delta = diff / 2 from hi to lo; any 0 < delta < diff lowers the max.
      double best_err = diff / 2.0;
      std::size_t bx = SIZE_MAX, by = SIZE_MAX;
      const Tokens tok_hi = tok[static_cast<std::size_t>(hi)],
                   tok_lo = tok[static_cast<std::size_t>(lo)];
      for (std::size_t x : in_hi) {
        const double wx = (items[x].*v.work)[0];
        const Tokens tx = items[x].tok[0];
        if (!allowed(x, lo)) continue;
        if (std::abs(wx - diff / 2.0) < best_err && (token_cap <= 0 || tok_lo + tx <= token_cap))
          best_err = std::abs(wx - diff / 2.0), bx = x, by = SIZE_MAX;
        for (std::size_t y : in_lo) {
          const double delta = wx - (items[y].*v.work)[0];
          const Tokens ty = items[y].tok[0];
          if (delta <= 0.0 || std::abs(delta - diff / 2.0) >= best_err || !allowed(y, hi)) continue;
          if (token_cap > 0 && (tok_lo + tx - ty > token_cap || tok_hi - tx + ty > token_cap))
            continue;
          best_err = std::abs(delta - diff / 2.0), bx = x, by = y;
        }
      }
      if (bx == SIZE_MAX) {
        // No short sequence helps: shift a long sequence's boundary slice instead.
        if (longs && move_boundary_slice(items, shape, token_cap, room, fb, pass, lay)) {
          ++ops;
          stuck[1 - pass] = false;
        } else {
          stuck[pass] = true;
        }
        continue;
      }
      auto move = [&](std::size_t i, int from, int to) {
        const double w = (items[i].*v.work)[0];
        load[static_cast<std::size_t>(from)] -= w;
        load[static_cast<std::size_t>(to)] += w;
        tok[static_cast<std::size_t>(from)] -= items[i].tok[0];
        tok[static_cast<std::size_t>(to)] += items[i].tok[0];
        (*v.pack)[i][0] = to;
      };
      move(bx, hi, lo);
      if (by != SIZE_MAX) move(by, lo, hi);
      if (!memory_fits(lay, room, fb)) {  // undo: the change moved activations past the room
        move(bx, lo, hi);
        if (by != SIZE_MAX) move(by, hi, lo);
        stuck[pass] = true;
        continue;
      }
      ++ops;
      stuck[1 - pass] = false;  // a change in one pass can open moves in the other
    }
  }
  return ops;
}

}  // namespace slimpack::solver_detail::sp
