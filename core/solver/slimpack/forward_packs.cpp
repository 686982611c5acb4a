// Phase 2, forward side: pinned DP-merged slices, long sequences' slices early, short sequences
// filling each pack to the forward-time budget.
#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>

#include "plan/schedule_order.h"
#include "solver/slimpack/model.h"
#include "solver/slimpack/pack_tree.h"

namespace slimpack::solver_detail::sp {

double Layout::zf() const {
  return fload.empty() ? 0.0 : *std::max_element(fload.begin(), fload.end());
}
double Layout::zb() const {
  return bload.empty() ? 0.0 : *std::max_element(bload.begin(), bload.end());
}

std::vector<double> stage_token_room(const Limits& lim, Tokens dkdv_context) {
  const MemoryModel& mm = lim.memory;
  std::vector<double> room(mm.static_bytes.size(), 1e300);
  if (mm.capacity_bytes <= 0.0) return room;
  for (std::size_t s = 0; s < room.size(); ++s) {
    const double free_bytes = mm.capacity_bytes - mm.static_bytes[s] -
                              mm.dkdv_per_context_token[s] * static_cast<double>(dkdv_context);
    room[s] = free_bytes / mm.activation_per_token[s];
  }
  return room;
}

std::vector<std::vector<int>> forwards_before(const Shape& shape) {
  std::vector<std::vector<int>> fb(static_cast<std::size_t>(shape.stages));
  for (int s = 0; s < shape.stages; ++s) {
    auto& row = fb[static_cast<std::size_t>(s)];
    row.assign(static_cast<std::size_t>(shape.mb), shape.mf);
    int issued = 0;
    for (const OrderedOp& op :
         stage_order(shape.schedule, shape.stages, s, shape.mf, shape.mb, shape.w, 1)) {
      if (op.pass == Pass::Forward)
        ++issued;
      else
        row[static_cast<std::size_t>(op.pack)] = issued;
    }
  }
  return fb;
}

namespace {

// First pack in [from, count) whose load stays within `limit` (by `load_of`), else the least
// loaded one in that range.
template <class LoadOf>
int first_fit_or_lightest(int from, int count, double add, double limit, LoadOf load_of) {
  int lightest = from;
  for (int m = from; m < count; ++m) {
    const double l = load_of(m);
    if (l + add <= limit) return m;
    if (l < load_of(lightest)) lightest = m;
  }
  return lightest;
}

}  // namespace

Pins make_pins(const std::vector<std::vector<Item>>& items, const Phase1& p1, const Shape& shape,
               Tokens token_cap) {
  const std::size_t d = items.size();
  std::vector<double> tf(d, 0.0), tb(d, 0.0);
  for (std::size_t r = 0; r < d; ++r) {
    for (const Item& it : items[r]) tf[r] += it.f_total, tb[r] += it.b_total;
    tf[r] /= shape.mf;
    tb[r] /= shape.mb;
  }
  std::vector<std::vector<double>> pf(d, std::vector<double>(static_cast<std::size_t>(shape.mf)));
  std::vector<std::vector<double>> pb(d, std::vector<double>(static_cast<std::size_t>(shape.mb)));
  std::vector<std::vector<double>> tf_tok(d,
                                          std::vector<double>(static_cast<std::size_t>(shape.mf)));
  Pins pins;
  pins.fpack.resize(p1.merged.size());
  pins.bpack.resize(p1.merged.size());
  for (std::size_t m = 0; m < p1.merged.size(); ++m) {
    const MergedSeq& ms = p1.merged[m];
    const auto first = static_cast<std::size_t>(ms.first);
    const Item* item = nullptr;
    for (const Item& it : items[first])
      if (it.merged == static_cast<int>(m)) item = &it;
    if (item == nullptr) continue;
    double budget_f = 1e300, budget_b = 1e300;
    for (std::size_t r = first; r < first + static_cast<std::size_t>(ms.shards); ++r)
      budget_f = std::min(budget_f, tf[r] * shape.long_share), budget_b = std::min(budget_b, tb[r]);
    auto group_max = [&](std::vector<std::vector<double>>& loads, int pack) {
      double l = 0.0;
      for (std::size_t r = first; r < first + static_cast<std::size_t>(ms.shards); ++r)
        l = std::max(l, loads[r][static_cast<std::size_t>(pack)]);
      return l;
    };
    auto add = [&](std::vector<std::vector<double>>& loads, int pack, double v) {
      for (std::size_t r = first; r < first + static_cast<std::size_t>(ms.shards); ++r)
        loads[r][static_cast<std::size_t>(pack)] += v;
    };
    const int k = item->slices();
    auto& fp = pins.fpack[m];
    auto& bp = pins.bpack[m];
    fp.assign(static_cast<std::size_t>(k), 0);
    bp.assign(static_cast<std::size_t>(k), 0);
    int prev = 0;
    for (int j = 0; j < k; ++j) {
      const double f = item->f[static_cast<std::size_t>(j)];
      const double t = static_cast<double>(item->tok[static_cast<std::size_t>(j)]);
      // A pack whose tokens would pass the cap looks full (memory: early packs are in flight
      // together on stage 0).
      prev = first_fit_or_lightest(prev, shape.mf, f, budget_f, [&](int p) {
        if (token_cap > 0 && group_max(tf_tok, p) + t > static_cast<double>(token_cap))
          return 1e300;
        return group_max(pf, p);
      });
      fp[static_cast<std::size_t>(j)] = prev;
      add(pf, prev, f);
      add(tf_tok, prev, t);
    }
    const int last = fp.back();
    int b0 = 0;
    while (b0 < shape.mb - 1 &&
           forwards_before_backward(shape.schedule, shape.mf, b0, shape.w) <= last)
      ++b0;
    prev = b0;
    for (int j = k - 1; j >= 0; --j) {
      const double b = item->b[static_cast<std::size_t>(j)];
      prev = first_fit_or_lightest(prev, shape.mb, b, budget_b,
                                   [&](int p) { return group_max(pb, p); });
      bp[static_cast<std::size_t>(j)] = prev;
      add(pb, prev, b);
    }
  }
  return pins;
}

namespace {

// Heaviest first, ties by index: sorting (key, index) pairs is several times faster than an
// indirect comparison on thousands of items, and this runs once per shape and replica.
void heaviest_first_order(const std::vector<Item>& items, std::vector<std::size_t>& list) {
  std::vector<std::pair<double, std::size_t>> keyed(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) keyed[k] = {-items[list[k]].f_total, list[k]};
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t k = 0; k < list.size(); ++k) list[k] = keyed[k].second;
}

// Steps 1 and 2 of build_forward(): the pinned merged slices and the long sequences' slices
// (`longs`, heaviest first: the only step that reads the long share).
void place_longs(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                 Tokens token_cap, const std::vector<std::size_t>& longs, Layout& out) {
  const int mf = shape.mf;
  out.mf = mf;
  out.fpack.reset(items, 0);
  out.fload.assign(static_cast<std::size_t>(mf), 0.0);
  out.ftok.assign(static_cast<std::size_t>(mf), 0);
  double total = 0.0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    total += it.f_total;
    if (it.merged >= 0) {
      for (int j = 0; j < it.slices(); ++j) {
        const int p = pins.fpack[static_cast<std::size_t>(it.merged)][static_cast<std::size_t>(j)];
        out.fpack[i][static_cast<std::size_t>(j)] = p;
        out.fload[static_cast<std::size_t>(p)] += it.f[static_cast<std::size_t>(j)];
        out.ftok[static_cast<std::size_t>(p)] += it.tok[static_cast<std::size_t>(j)];
      }
    }
  }
  const double budget = total / mf;
  auto tok_ok = [&](int p, Tokens t) {
    return token_cap <= 0 || t <= token_cap - out.ftok[static_cast<std::size_t>(p)];
  };
  // Long sequences first, each from pack 0: their last slices land early so that their backward
  // can start with a small warm-up, and their K/V prefix grows pack by pack (L1).
  const double long_limit = budget * shape.long_share;
  PackTree tree(out.fload, out.ftok);
  for (std::size_t i : longs) {
    const Item& it = items[i];
    int prev = 0;
    for (int j = 0; j < it.slices(); ++j) {
      const double f = it.f[static_cast<std::size_t>(j)];
      const Tokens t = it.tok[static_cast<std::size_t>(j)];
      // The first pack from `prev` within the long limit and the token cap; when none is, the
      // least loaded one of those under the cap (of all when none is under it).
      int pick = tree.first_fit(prev, f, long_limit, t, token_cap);
      if (pick < 0) {
        const bool all_ok = token_cap <= 0 || tree.max_tokens(prev) + t <= token_cap;
        const bool none_ok = !all_ok && tree.min_tokens(prev) + t > token_cap;
        if (all_ok || none_ok) {
          pick = tree.lightest(prev);
        } else {  // some packs are under the cap and some not: the lightest of those under it
          pick = -1;
          for (int p = prev; p < mf; ++p)
            if (tok_ok(p, t) && (pick < 0 || out.fload[static_cast<std::size_t>(p)] <
                                                 out.fload[static_cast<std::size_t>(pick)]))
              pick = p;
        }
      }
      out.fpack[i][static_cast<std::size_t>(j)] = pick;
      out.fload[static_cast<std::size_t>(pick)] += f;
      out.ftok[static_cast<std::size_t>(pick)] += t;
      tree.update(pick, out.fload[static_cast<std::size_t>(pick)],
                  out.ftok[static_cast<std::size_t>(pick)]);
      prev = pick;
    }
  }
}

}  // namespace

ForwardOrder forward_order(const std::vector<Item>& items) {
  ForwardOrder order;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].merged >= 0) continue;
    (items[i].is_long() ? order.longs : order.shorts).push_back(i);
  }
  heaviest_first_order(items, order.longs);
  heaviest_first_order(items, order.shorts);
  return order;
}

void build_forward(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                   Tokens token_cap, Layout& out, const ForwardOrder* order) {
  ForwardOrder own;
  if (order == nullptr) order = &(own = forward_order(items));
  place_longs(items, pins, shape, token_cap, order->longs, out);
  const std::vector<std::size_t>& shorts = order->shorts;
  const int mf = shape.mf;
  // Written as a difference: `t` may be the numeric_limits sentinel of `smallest` below (no short
  // sequences), and ftok + t would overflow (UB, found by the UBSan CI stage).
  auto tok_ok = [&](int p, Tokens t) {
    return token_cap <= 0 || t <= token_cap - out.ftok[static_cast<std::size_t>(p)];
  };
  // Short sequences by LPT into the lightest pack that keeps the token cap. A pack that not even
  // the smallest short sequence fits is set aside for good (it used to be popped and pushed back
  // for every short sequence: O(shorts * Mf) where the cap binds); it can still be the fallback
  // when nothing fits, exactly as before.
  using Entry = std::pair<double, int>;
  using MinHeap = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>;
  Tokens smallest = std::numeric_limits<Tokens>::max();
  for (std::size_t i : shorts) smallest = std::min(smallest, items[i].tok[0]);
  auto full = [&](int p) { return !tok_ok(p, smallest); };
  MinHeap heap, set_aside;
  for (int p = 0; p < mf; ++p)
    (full(p) ? set_aside : heap).push({out.fload[static_cast<std::size_t>(p)], p});
  std::vector<Entry> skipped;
  for (std::size_t i : shorts) {
    const Tokens t = items[i].tok[0];
    skipped.clear();
    int pick = -1;
    while (!heap.empty()) {
      Entry e = heap.top();
      heap.pop();
      if (tok_ok(e.second, t)) {
        pick = e.second;
        break;
      }
      if (full(e.second))
        set_aside.push(e);
      else
        skipped.push_back(e);
    }
    if (pick < 0) {  // nothing fits: the lightest pack of all
      if (!set_aside.empty() && (skipped.empty() || set_aside.top() < skipped.front())) {
        pick = set_aside.top().second;
        set_aside.pop();
      } else {
        pick = skipped.front().second;
      }
    }
    for (const Entry& e : skipped)
      if (e.second != pick) heap.push(e);
    out.fpack[i][0] = pick;
    out.fload[static_cast<std::size_t>(pick)] += items[i].f[0];
    out.ftok[static_cast<std::size_t>(pick)] += t;
    (full(pick) ? set_aside : heap).push({out.fload[static_cast<std::size_t>(pick)], pick});
  }
}

bool places_longs_alike(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                        Tokens token_cap, const Layout& built, const ForwardOrder* order) {
  ForwardOrder own;
  if (order == nullptr) order = &(own = forward_order(items));
  Layout trial;
  place_longs(items, pins, shape, token_cap, order->longs, trial);
  if (trial.mf != built.mf) return false;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].merged < 0 && items[i].is_long() &&
        !std::equal(trial.fpack[i].begin(), trial.fpack[i].end(), built.fpack[i].begin(),
                    built.fpack[i].end()))
      return false;
  return true;
}

}  // namespace slimpack::solver_detail::sp
