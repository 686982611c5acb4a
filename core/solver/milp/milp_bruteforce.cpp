// Exhaustive search over every phase-2 assignment of a tiny instance: the referee that proves the
// MILP's optimum in tests. Depth-first, forward pass first (every sequence's slices in
// non-decreasing packs, every bucket's count composed over the packs), then the backward pass
// (non-increasing packs from the first ready one, bucket counts respecting cumulative readiness).
// Branches whose partial max loads plus a simple bound cannot beat the incumbent are cut; every
// leaf is judged by evaluate_phase2, so the search shares the checker's semantics exactly.
#include <chrono>
#include <cmath>
#include <limits>

#include "solver/milp/milp_layout.h"
#include "solver/milp/milp_phase2.h"

namespace slimpack {

namespace {

class Exhaustive {
 public:
  explicit Exhaustive(const MilpPhase2Input& in) : in_(in), groups_(milp_detail::group_slices(in)) {
    sol_.slice_fwd_pack.assign(in.slices.size(), 0);
    sol_.slice_bwd_pack.assign(in.slices.size(), 0);
    sol_.bucket_fwd_count.assign(in.buckets.size(), std::vector<int>(in.mf, 0));
    sol_.bucket_bwd_count.assign(in.buckets.size(), std::vector<int>(in.mb, 0));
    fwd_load_.assign(in.mf, 0.0);
    bwd_load_.assign(in.mb, 0.0);
    fwd_tok_.assign(in.mf, 0.0);
    bwd_tok_.assign(in.mb, 0.0);
    fwd_act_.assign(in.mf, 0.0);
    bwd_act_.assign(in.mb, 0.0);
    for (const auto& s : in.slices) unfreed_ += s.act_bytes;
    for (const auto& b : in.buckets) unfreed_ += b.count * b.act_bytes;
    double total_bwd = 0.0;
    for (const auto& s : in.slices) {
      total_bwd += s.bwd_time;
      bwd_floor_ = std::max(bwd_floor_, s.bwd_time);
    }
    for (const auto& b : in.buckets) {
      total_bwd += b.count * b.bwd_time;
      if (b.count > 0) bwd_floor_ = std::max(bwd_floor_, b.bwd_time);
    }
    bwd_floor_ = std::max(bwd_floor_, total_bwd / in.mb);
  }

  void run(double max_nodes) {
    max_nodes_ = max_nodes;
    forward_seq(0);
  }
  bool aborted() const { return nodes_ > max_nodes_; }
  double nodes() const { return nodes_; }
  bool found() const { return best_obj_ < std::numeric_limits<double>::infinity(); }
  const MilpPhase2Solution& best() const { return best_; }
  double best_objective() const { return best_obj_; }

 private:
  static double max_of(const std::vector<double>& v) {
    return *std::max_element(v.begin(), v.end());
  }
  bool hopeless(bool in_backward) {
    if (++nodes_ > max_nodes_) return true;  // unwinds the whole search once over budget
    const double lb =
        max_of(fwd_load_) + std::max(max_of(bwd_load_), in_backward ? 0.0 : bwd_floor_);
    return lb >= best_obj_ || memory_hopeless();
  }
  // Stage-0 memory before backward pack b can only fall by the bytes not yet placed in a backward
  // pack, so a row that stays over the cap even if all of them landed before b is a dead end.
  bool memory_hopeless() const {
    if (in_.memory_cap_bytes <= 0) return false;
    for (int b = 0; b < in_.mb; ++b) {
      double held = in_.static_bytes - unfreed_;
      for (int m = 0; m < milp_detail::stage0_forwards_before(in_, b); ++m) held += fwd_act_[m];
      for (int q = 0; q < b; ++q) held -= bwd_act_[q];
      if (b == 0) held += unfreed_;  // nothing is freed before the first backward pack
      if (!milp_detail::within(held, in_.memory_cap_bytes)) return true;
    }
    return false;
  }
  bool tok_ok(double t) const {
    return in_.token_cap <= 0 || milp_detail::within(t, in_.token_cap);
  }

  // ---- forward pass ----
  void forward_seq(size_t g) {
    if (g == groups_.size()) return forward_bucket(0, 0);
    forward_slice(g, 0, 0);
  }
  void forward_slice(size_t g, size_t j, int min_pack) {
    const auto& ids = groups_[g].slice_ids;
    if (j == ids.size()) return forward_seq(g + 1);
    const MilpSlice& s = in_.slices[ids[j]];
    for (int m = min_pack; m < in_.mf; ++m) {
      if (!tok_ok(fwd_tok_[m] + s.tokens)) continue;
      fwd_load_[m] += s.fwd_time;
      fwd_tok_[m] += s.tokens;
      fwd_act_[m] += s.act_bytes;
      sol_.slice_fwd_pack[ids[j]] = m;
      if (!hopeless(false)) forward_slice(g, j + 1, m);
      fwd_load_[m] -= s.fwd_time;
      fwd_tok_[m] -= s.tokens;
      fwd_act_[m] -= s.act_bytes;
    }
  }
  void forward_bucket(size_t k, int m) {
    if (k == in_.buckets.size()) return backward_seq(0);
    const MilpShortBucket& b = in_.buckets[k];
    int left = b.count;
    for (int q = 0; q < m; ++q) left -= sol_.bucket_fwd_count[k][q];
    const int lo = (m == in_.mf - 1) ? left : 0;  // the last pack takes the rest
    for (int n = lo; n <= left; ++n) {
      if (!tok_ok(fwd_tok_[m] + n * b.length)) break;
      fwd_load_[m] += n * b.fwd_time;
      fwd_tok_[m] += n * b.length;
      fwd_act_[m] += n * b.act_bytes;
      sol_.bucket_fwd_count[k][m] = n;
      if (!hopeless(false)) {
        if (m + 1 < in_.mf)
          forward_bucket(k, m + 1);
        else
          forward_bucket(k + 1, 0);
      }
      fwd_load_[m] -= n * b.fwd_time;
      fwd_tok_[m] -= n * b.length;
      fwd_act_[m] -= n * b.act_bytes;
    }
    sol_.bucket_fwd_count[k][m] = 0;
  }

  // ---- backward pass ----
  void backward_seq(size_t g) {
    if (g == groups_.size()) return backward_bucket(0, 0);
    const auto& ids = groups_[g].slice_ids;
    // The last slice goes first; it may start once its forward pack is within the ready limit.
    const int first = std::max(0, sol_.slice_fwd_pack[ids.back()] - in_.warmup_extra);
    backward_slice(g, ids.size(), first);
  }
  void backward_slice(size_t g, size_t j_plus_one, int min_pack) {
    if (j_plus_one == 0) return backward_seq(g + 1);
    const int id = groups_[g].slice_ids[j_plus_one - 1];
    const MilpSlice& s = in_.slices[id];
    for (int b = min_pack; b < in_.mb; ++b) {
      if (!tok_ok(bwd_tok_[b] + s.tokens)) continue;
      bwd_load_[b] += s.bwd_time;
      bwd_tok_[b] += s.tokens;
      bwd_act_[b] += s.act_bytes;
      unfreed_ -= s.act_bytes;
      sol_.slice_bwd_pack[id] = b;
      if (!hopeless(true)) backward_slice(g, j_plus_one - 1, b);
      bwd_load_[b] -= s.bwd_time;
      bwd_tok_[b] -= s.tokens;
      bwd_act_[b] -= s.act_bytes;
      unfreed_ += s.act_bytes;
    }
  }
  void backward_bucket(size_t k, int b) {
    if (k == in_.buckets.size()) return leaf();
    const MilpShortBucket& bk = in_.buckets[k];
    int done = 0;
    for (int q = 0; q < b; ++q) done += sol_.bucket_bwd_count[k][q];
    int ready = 0;
    for (int m = 0; m <= milp_detail::ready_limit(in_, b); ++m)
      ready += sol_.bucket_fwd_count[k][m];
    const int left = bk.count - done;
    const int hi = std::min(left, ready - done);
    const int lo = (b == in_.mb - 1) ? left : 0;
    for (int n = lo; n <= hi; ++n) {
      if (!tok_ok(bwd_tok_[b] + n * bk.length)) break;
      bwd_load_[b] += n * bk.bwd_time;
      bwd_tok_[b] += n * bk.length;
      bwd_act_[b] += n * bk.act_bytes;
      unfreed_ -= n * bk.act_bytes;
      sol_.bucket_bwd_count[k][b] = n;
      if (!hopeless(true)) {
        if (b + 1 < in_.mb)
          backward_bucket(k, b + 1);
        else
          backward_bucket(k + 1, 0);
      }
      bwd_load_[b] -= n * bk.bwd_time;
      bwd_tok_[b] -= n * bk.length;
      bwd_act_[b] -= n * bk.act_bytes;
      unfreed_ += n * bk.act_bytes;
    }
    sol_.bucket_bwd_count[k][b] = 0;
  }

  void leaf() {
    const double obj = evaluate_phase2(in_, sol_, nullptr);
    if (obj < best_obj_) {
      best_obj_ = obj;
      best_ = sol_;
    }
  }

  const MilpPhase2Input& in_;
  std::vector<milp_detail::SeqSlices> groups_;
  MilpPhase2Solution sol_;
  MilpPhase2Solution best_;
  double best_obj_ = std::numeric_limits<double>::infinity();
  double bwd_floor_ = 0.0;
  double unfreed_ = 0.0;
  double nodes_ = 0.0;
  double max_nodes_ = 0.0;  // activation bytes not yet placed in any backward pack
  std::vector<double> fwd_load_, bwd_load_, fwd_tok_, bwd_tok_, fwd_act_, bwd_act_;
};

}  // namespace

Expected<MilpPhase2Result> solve_phase2_exhaustive(const MilpPhase2Input& in, double max_nodes) {
  const auto start = std::chrono::steady_clock::now();
  if (Status st = validate_phase2_input(in); !st) return st.error();
  Exhaustive search(in);
  search.run(max_nodes);
  if (search.aborted()) {
    return Error::bad_input("phase 2 exhaustive search: instance too large (over " +
                            std::to_string(static_cast<long long>(max_nodes)) +
                            " partial assignments visited)");
  }
  if (!search.found()) {
    return Error::infeasible(
        "phase 2: no assignment satisfies order, readiness, token and memory"
        " rules (exhaustive search)");
  }
  MilpPhase2Result r;
  r.solution = search.best();
  compute_phase2_loads(in, r.solution);
  r.objective = search.best_objective();
  r.bound = r.objective;
  r.proven_optimal = true;
  r.status = "optimal";
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace slimpack
