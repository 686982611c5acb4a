#pragma once
// A segment tree over the forward packs of one replica (load and tokens per pack), so that the
// forward packer places a long sequence's slice in O(log Mf) instead of scanning every pack from
// the previous slice's pack: at 4M tokens that scan was O(slices * Mf) per shape and replica.
// Queries return exactly what the scans returned (leftmost index on ties).
#include <algorithm>
#include <vector>

#include "common/sequence.h"

namespace slimpack::solver_detail::sp {

class PackTree {
 public:
  PackTree(const std::vector<double>& load, const std::vector<Tokens>& tok)
      : n_(static_cast<int>(load.size())) {
    while (size_ < std::max(1, n_)) size_ *= 2;
    min_load_.assign(2 * static_cast<std::size_t>(size_), kNone);
    lightest_.assign(2 * static_cast<std::size_t>(size_), -1);
    min_tok_.assign(2 * static_cast<std::size_t>(size_), kNoTokens);
    max_tok_.assign(2 * static_cast<std::size_t>(size_), 0);
    for (int p = 0; p < n_; ++p)
      set_leaf(p, load[static_cast<std::size_t>(p)], tok[static_cast<std::size_t>(p)]);
    for (int v = size_ - 1; v >= 1; --v) pull(v);
  }

  void update(int p, double load, Tokens tok) {
    set_leaf(p, load, tok);
    for (int v = (p + size_) / 2; v >= 1; v /= 2) pull(v);
  }

  // The leftmost pack p >= from with load[p] + add <= limit and (cap <= 0 or tok[p] + t <= cap),
  // or -1.
  int first_fit(int from, double add, double limit, Tokens t, Tokens cap) const {
    return first_fit(1, 0, size_, from, add, limit, t, cap);
  }
  // The leftmost least loaded pack in [from, n).
  int lightest(int from) const { return range(1, 0, size_, from).lightest; }
  // Smallest and largest token count in [from, n).
  Tokens min_tokens(int from) const { return range(1, 0, size_, from).min_tok; }
  Tokens max_tokens(int from) const { return range(1, 0, size_, from).max_tok; }

 private:
  static constexpr double kNone = 1e300;
  static constexpr Tokens kNoTokens = static_cast<Tokens>(1) << 62;

  struct Summary {
    double min_load = kNone;
    int lightest = -1;
    Tokens min_tok = kNoTokens;
    Tokens max_tok = 0;
  };

  void set_leaf(int p, double load, Tokens tok) {
    const auto v = static_cast<std::size_t>(p + size_);
    min_load_[v] = load;
    lightest_[v] = p;
    min_tok_[v] = tok;
    max_tok_[v] = tok;
  }
  void pull(int v) {
    const auto u = static_cast<std::size_t>(v), l = 2 * u, r = 2 * u + 1;
    // Strictly lighter on the right to move: ties keep the leftmost pack.
    const bool right = min_load_[r] < min_load_[l];
    min_load_[u] = right ? min_load_[r] : min_load_[l];
    lightest_[u] = right ? lightest_[r] : lightest_[l];
    min_tok_[u] = std::min(min_tok_[l], min_tok_[r]);
    max_tok_[u] = std::max(max_tok_[l], max_tok_[r]);
  }
  Summary at(int v) const {
    const auto u = static_cast<std::size_t>(v);
    return {min_load_[u], lightest_[u], min_tok_[u], max_tok_[u]};
  }
  static Summary merge(const Summary& a, const Summary& b) {
    const bool right = b.min_load < a.min_load;
    return {right ? b.min_load : a.min_load, right ? b.lightest : a.lightest,
            std::min(a.min_tok, b.min_tok), std::max(a.max_tok, b.max_tok)};
  }
  // Summary of the leaves of node v (covering [lo, hi)) at index >= from.
  Summary range(int v, int lo, int hi, int from) const {
    if (hi <= from || lo >= n_) return {};
    if (lo >= from) return at(v);
    const int mid = (lo + hi) / 2;
    return merge(range(2 * v, lo, mid, from), range(2 * v + 1, mid, hi, from));
  }
  int first_fit(int v, int lo, int hi, int from, double add, double limit, Tokens t,
                Tokens cap) const {
    const auto u = static_cast<std::size_t>(v);
    if (hi <= from || lo >= n_ || min_load_[u] + add > limit) return -1;
    if (cap > 0 && min_tok_[u] + t > cap) return -1;
    if (hi - lo == 1) return lo;
    const int mid = (lo + hi) / 2;
    const int left = first_fit(2 * v, lo, mid, from, add, limit, t, cap);
    return left >= 0 ? left : first_fit(2 * v + 1, mid, hi, from, add, limit, t, cap);
  }

  int n_ = 0;
  int size_ = 1;
  std::vector<double> min_load_;
  std::vector<int> lightest_;
  std::vector<Tokens> min_tok_, max_tok_;
};

}  // namespace slimpack::solver_detail::sp
