#include "solver/sliced_layout.h"

#include <algorithm>

#include "slicer/slicer.h"

namespace slimpack::solver_detail {
namespace {

struct Item {
  Segment seg;
  double work = 0.0;
};

// Greedy contiguous fill for bottleneck `limit`: the start index of each pack, into `starts`
// (cleared first, so that the bisection below reuses one buffer for its ~60 probes). A sequence
// whose whole forward work fits the limit is kept in one pack (it starts a new pack when it does
// not fit the current one): only sequences bigger than a pack span several, so runs of packs
// chained by spanning sequences stay short and the symmetric warm-up w stays small.
void cuts_for(const std::vector<Item>& items, const std::vector<std::size_t>& seq_end, double limit,
              Tokens cap, std::vector<std::size_t>& starts) {
  starts.assign(1, 0);
  double load = 0.0;
  Tokens tok = 0;
  auto open = [&](std::size_t i) {
    if (tok > 0) {
      starts.push_back(i);
      load = 0.0;
      tok = 0;
    }
  };
  std::size_t i = 0;
  while (i < items.size()) {
    const std::size_t e = seq_end[i];
    double w = 0.0;
    Tokens t = 0;
    for (std::size_t k = i; k < e; ++k) w += items[k].work, t += items[k].seg.tokens();
    if (e - i > 1 && w <= limit && (cap <= 0 || t <= cap)) {
      if (load + w > limit || (cap > 0 && tok + t > cap)) open(i);
      load += w;
      tok += t;
      i = e;
      continue;
    }
    for (; i < e; ++i) {
      const Item& it = items[i];
      if (load + it.work > limit || (cap > 0 && tok + it.seg.tokens() > cap)) open(i);
      load += it.work;
      tok += it.seg.tokens();
    }
  }
}

}  // namespace

std::vector<Pack> contiguous_packs(const std::vector<Sequence>& seqs,
                                   const std::vector<SeqIndex>& members, Tokens slice_size,
                                   int packs, Tokens token_cap, const PassLine& fwd) {
  std::vector<Item> items;
  items.reserve(members.size());
  double total = 0.0, biggest = 0.0;
  Tokens biggest_tok = 0;
  for (SeqIndex i : members) {
    for (const Slice& s : slice_sequence(i, seqs[static_cast<std::size_t>(i)].length, slice_size)) {
      Item it{s.segment(), fwd.work(static_cast<double>(s.tokens()), pairs_of(s.begin, s.end))};
      total += it.work;
      biggest = std::max(biggest, it.work);
      biggest_tok = std::max(biggest_tok, s.tokens());
      items.push_back(it);
    }
  }
  if (items.empty()) return {};
  // seq_end[i]: one past the last item of the sequence item i belongs to.
  std::vector<std::size_t> seq_end(items.size());
  for (std::size_t i = items.size(); i-- > 0;)
    seq_end[i] =
        (i + 1 < items.size() && items[i + 1].seg.seq == items[i].seg.seq) ? seq_end[i + 1] : i + 1;
  const Tokens cap = token_cap > 0 ? std::max(token_cap, biggest_tok) : 0;
  const std::size_t m =
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1, packs)), 1, items.size());
  double lo = biggest, hi = std::max(total, biggest);
  std::vector<std::size_t> starts;
  cuts_for(items, seq_end, lo, cap, starts);
  if (starts.size() > m) {
    for (int iter = 0; iter < 60 && hi - lo > 1e-9 * hi; ++iter) {
      const double mid = 0.5 * (lo + hi);
      cuts_for(items, seq_end, mid, cap, starts);
      (starts.size() <= m ? hi : lo) = mid;
    }
  } else {
    hi = lo;
  }
  cuts_for(items, seq_end, hi, cap, starts);
  // Fewer packs than asked: split the heaviest pack with two or more items at its best point.
  auto load_of = [&](std::size_t a, std::size_t b) {
    double l = 0.0;
    for (std::size_t i = a; i < b; ++i) l += items[i].work;
    return l;
  };
  // Each pack's load, kept next to `starts` (a split recomputes its two halves the same way):
  // summing every pack again for every split cost O(M x slices) per replica.
  auto end_of = [&](std::size_t k) { return k + 1 < starts.size() ? starts[k + 1] : items.size(); };
  std::vector<double> loads(starts.size());
  for (std::size_t k = 0; k < starts.size(); ++k) loads[k] = load_of(starts[k], end_of(k));
  while (starts.size() < m) {
    std::size_t best = starts.size();
    double best_load = -1.0;
    for (std::size_t k = 0; k < starts.size(); ++k) {
      if (end_of(k) - starts[k] < 2) continue;
      const double l = loads[k];
      if (l > best_load) best_load = l, best = k;
    }
    if (best == starts.size()) break;
    const std::size_t a = starts[best];
    const std::size_t b = best + 1 < starts.size() ? starts[best + 1] : items.size();
    double left = 0.0, best_max = best_load;
    std::size_t cut = a + 1;
    // Prefer a cut between sequences (no new spanning sequence); inside one only if none exists.
    bool boundary_found = false;
    for (std::size_t i = a; i + 1 < b; ++i) {
      left += items[i].work;
      const bool boundary = items[i + 1].seg.seq != items[i].seg.seq;
      const double mx = std::max(left, best_load - left);
      if ((boundary && !boundary_found) || (boundary == boundary_found && mx < best_max)) {
        best_max = mx;
        cut = i + 1;
        boundary_found = boundary_found || boundary;
      }
    }
    starts.insert(starts.begin() + static_cast<std::ptrdiff_t>(best) + 1, cut);
    loads.insert(loads.begin() + static_cast<std::ptrdiff_t>(best) + 1, 0.0);
    loads[best] = load_of(a, cut);
    loads[best + 1] = load_of(cut, b);
  }
  std::vector<Pack> out(starts.size());
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t b = k + 1 < starts.size() ? starts[k + 1] : items.size();
    auto& segs = out[k].segments;
    for (std::size_t i = starts[k]; i < b; ++i) {
      const Segment& s = items[i].seg;
      if (!segs.empty() && segs.back().seq == s.seq && segs.back().end == s.begin)
        segs.back().end = s.end;
      else
        segs.push_back(s);
    }
  }
  return out;
}

}  // namespace slimpack::solver_detail
