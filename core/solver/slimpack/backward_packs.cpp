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

namespace {

using ShortPool = std::multiset<std::pair<double, std::size_t>>;  // (backward work, item)

// The backward packs of one replica, pack after pack, as named steps. Every step only adds ready
// work to the current pack, so each decision depends on earlier packs only.
class BackwardPacker {
 public:
  BackwardPacker(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                 Tokens token_cap, const std::vector<double>& room,
                 const std::vector<std::vector<int>>& fb, Layout& out)
      : items_(items), shape_(shape), token_cap_(token_cap), room_(room), fb_(fb), out_(out) {
    place_pinned_and_order(pins);
  }

  BackwardBuild run() {
    for (b_ = 0; b_ < shape_.mb; ++b_) {
      admit_ready_sequences();
      if (BackwardBuild held = check_held_before_pack(); !held) return held;
      last_ = b_ == shape_.mb - 1;
      budget_ = remaining_ / (shape_.mb - b_);
      if (!last_ && tok() == 0) open_with_oversized_piece();
      take_long_slices();
      take_short_sequences();
      if (tok() == 0) take_smallest_ready_piece();
      free_for_next_forwards();
      if (tok() == 0)
        return {BackwardFailure::NothingReady,
                "nothing ready for backward pack B" + std::to_string(b_ + 1)};
      std::erase_if(longs_, [](const LongState& ls) { return ls.next < 0; });
      remaining_ -= load();
      cum_b_ += static_cast<double>(tok());
    }
    if (cursor_ < order_.size() || !longs_.empty() || !shorts_.empty())
      return {BackwardFailure::LateSequences,
              "sequences not ready by the last backward pack (w too small)"};
    return {};
  }

 private:
  // DP-merged slices go to their pinned packs (L6); the other items wait in the order in which
  // their last forward slice runs.
  void place_pinned_and_order(const Pins& pins) {
    const auto mb = static_cast<std::size_t>(shape_.mb);
    out_.mb = shape_.mb;
    out_.bpack.reset(items_, -1);
    out_.bload.assign(mb, 0.0);
    out_.btok.assign(mb, 0);
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Item& it = items_[i];
      remaining_ += it.b_total;
      if (it.merged < 0) {
        order_.push_back(i);
        continue;
      }
      for (int j = 0; j < it.slices(); ++j) {
        const int p = pins.bpack[static_cast<std::size_t>(it.merged)][static_cast<std::size_t>(j)];
        out_.bpack[i][static_cast<std::size_t>(j)] = p;
        out_.bload[static_cast<std::size_t>(p)] += it.b[static_cast<std::size_t>(j)];
        out_.btok[static_cast<std::size_t>(p)] += it.tok[static_cast<std::size_t>(j)];
      }
    }
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      return out_.fpack[a].back() < out_.fpack[b].back();
    });
    cum_f_.assign(out_.ftok.size() + 1, 0.0);
    for (std::size_t k = 0; k < out_.ftok.size(); ++k) cum_f_[k + 1] = cum_f_[k] + out_.ftok[k];
  }

  // Sequences whose last slice is in the forward packs that run before B_b (L3) join the pools.
  void admit_ready_sequences() {
    const int ready = forwards_before_backward(shape_.schedule, shape_.mf, b_, shape_.w);
    for (; cursor_ < order_.size() && out_.fpack[order_[cursor_]].back() < ready; ++cursor_) {
      const std::size_t i = order_[cursor_];
      if (items_[i].is_long())
        longs_.push_back({i, items_[i].slices() - 1});
      else
        shorts_.insert({items_[i].b[0], i});
    }
  }

  // Held activations before B_b must fit: they only depend on earlier packs (L4).
  BackwardBuild check_held_before_pack() const {
    const auto ub = static_cast<std::size_t>(b_);
    for (std::size_t s = 0; s < fb_.size(); ++s) {
      const double held = cum_f_[static_cast<std::size_t>(fb_[s][ub])] - cum_b_;
      if (held > room_[s])
        return {BackwardFailure::MemoryRoom,
                "stage " + std::to_string(s) + " memory before backward pack B" +
                    std::to_string(b_ + 1) + ": " + std::to_string(static_cast<long long>(held)) +
                    " tokens held, room for " + std::to_string(static_cast<long long>(room_[s]))};
    }
    return {};
  }

  // A ready piece heavier than the whole budget can never fit a pack: it opens an empty one.
  void open_with_oversized_piece() {
    LongState* heavy = nullptr;
    for (LongState& ls : longs_)
      if (ls.next >= 0 && (heavy == nullptr || next_work(ls) > next_work(*heavy))) heavy = &ls;
    const double wl = heavy ? next_work(*heavy) : 0.0;
    const double ws = shorts_.empty() ? 0.0 : std::prev(shorts_.end())->first;
    if (std::max(wl, ws) <= budget_) return;
    if (heavy != nullptr && wl >= ws)
      take_slice(*heavy);
    else if (!shorts_.empty())
      take_short(std::prev(shorts_.end()));
  }

  // Highest remaining slices first: the ready long sequence whose next slice is the heaviest
  // that still fits the budget, continuing down that sequence (reverse order, L2) while it fits.
  void take_long_slices() {
    while (true) {
      LongState* best = nullptr;
      for (LongState& ls : longs_) {
        if (ls.next < 0 || !fits(next_work(ls), next_tokens(ls))) continue;
        if (best == nullptr || next_work(ls) > next_work(*best)) best = &ls;
      }
      if (best == nullptr) return;
      do {
        take_slice(*best);
      } while (best->next >= 0 && fits(next_work(*best), next_tokens(*best)));
    }
  }

  // Short sequences: the largest that still fits, until none does (the last pack takes all).
  void take_short_sequences() {
    while (!shorts_.empty()) {
      if (last_) {
        take_short(shorts_.begin());
        continue;
      }
      auto itr = shorts_.upper_bound({budget_ - load(), items_.size()});
      if (itr == shorts_.begin()) return;
      --itr;
      if (!tok_ok(items_[itr->second].tok[0])) return;
      take_short(itr);
    }
  }

  // An empty pack would waste a pipeline slot: the smallest ready piece over budget.
  void take_smallest_ready_piece() {
    LongState* best = nullptr;
    for (LongState& ls : longs_)
      if (ls.next >= 0 && (best == nullptr || next_work(ls) < next_work(*best))) best = &ls;
    if (!shorts_.empty())
      take_short(shorts_.begin());
    else if (best != nullptr)
      take_slice(*best);
  }

  // Memory: keep taking ready work until the forwards issued before B_(b+1) fit every stage.
  void free_for_next_forwards() {
    if (last_) return;
    const auto next = static_cast<std::size_t>(b_ + 1);
    double must_free = 0.0;
    for (std::size_t s = 0; s < fb_.size(); ++s)
      must_free =
          std::max(must_free, cum_f_[static_cast<std::size_t>(fb_[s][next])] - room_[s] - cum_b_);
    while (static_cast<double>(tok()) < must_free) {
      LongState* any = nullptr;
      for (LongState& ls : longs_)
        if (ls.next >= 0) any = &ls;
      if (any != nullptr)
        take_slice(*any);
      else if (!shorts_.empty())
        take_short(std::prev(shorts_.end()));
      else
        return;
    }
  }

  double& load() { return out_.bload[static_cast<std::size_t>(b_)]; }
  Tokens& tok() { return out_.btok[static_cast<std::size_t>(b_)]; }
  double next_work(const LongState& ls) const {
    return items_[ls.item].b[static_cast<std::size_t>(ls.next)];
  }
  Tokens next_tokens(const LongState& ls) const {
    return items_[ls.item].tok[static_cast<std::size_t>(ls.next)];
  }
  bool tok_ok(Tokens t) { return token_cap_ <= 0 || tok() + t <= token_cap_ || last_; }
  bool fits(double work, Tokens t) { return last_ || (load() + work <= budget_ && tok_ok(t)); }

  void take_slice(LongState& ls) {
    const Item& it = items_[ls.item];
    const auto j = static_cast<std::size_t>(ls.next);
    out_.bpack[ls.item][j] = b_;
    load() += it.b[j];
    tok() += it.tok[j];
    --ls.next;
  }
  void take_short(ShortPool::iterator itr) {
    const std::size_t i = itr->second;
    out_.bpack[i][0] = b_;
    load() += items_[i].b[0];
    tok() += items_[i].tok[0];
    shorts_.erase(itr);
  }

  const std::vector<Item>& items_;
  const Shape& shape_;
  const Tokens token_cap_;
  const std::vector<double>& room_;
  const std::vector<std::vector<int>>& fb_;
  Layout& out_;

  std::vector<std::size_t> order_;  // unmerged items by the forward pack of their last slice
  std::vector<double> cum_f_;       // forward tokens before each forward pack
  std::size_t cursor_ = 0;          // next item of order_ to become ready
  std::vector<LongState> longs_;    // ready long sequences with slices left
  ShortPool shorts_;                // ready short sequences
  double remaining_ = 0.0;          // backward work not yet in a pack
  double cum_b_ = 0.0;              // tokens of backward packs before the current one
  int b_ = 0;                       // the current backward pack
  bool last_ = false;               // the current pack is the last: it takes everything ready
  double budget_ = 0.0;             // remaining work / remaining packs
};

}  // namespace

BackwardBuild build_backward(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                             Tokens token_cap, const std::vector<double>& room,
                             const std::vector<std::vector<int>>& fb, Layout& out) {
  return BackwardPacker(items, pins, shape, token_cap, room, fb, out).run();
}

}  // namespace slimpack::solver_detail::sp
