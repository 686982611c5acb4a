// Input validation and the independent feasibility checker of the phase-2 model. Neither uses CBC:
// the checker is the referee for the MILP, the exhaustive search and the tests.
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "solver/milp/milp_layout.h"
#include "solver/milp/milp_phase2.h"

namespace slimpack {

namespace milp_detail {

std::vector<SeqSlices> group_slices(const MilpPhase2Input& in) {
  std::vector<SeqSlices> groups;
  std::map<int, size_t> where;
  for (size_t i = 0; i < in.slices.size(); ++i) {
    auto [it, fresh] = where.emplace(in.slices[i].seq, groups.size());
    if (fresh) groups.push_back({in.slices[i].seq, {}});
    groups[it->second].slice_ids.push_back(static_cast<int>(i));
  }
  for (auto& g : groups) {
    std::sort(g.slice_ids.begin(), g.slice_ids.end(),
              [&](int a, int b) { return in.slices[a].index < in.slices[b].index; });
  }
  return groups;
}

}  // namespace milp_detail

using milp_detail::within;

namespace {

bool fail(std::string* violation, const std::string& why) {
  if (violation) *violation = why;
  return false;
}

// The checker's verdict for a rejected solution: +infinity, with the reason recorded.
double reject(std::string* violation, const std::string& why) {
  fail(violation, why);
  return std::numeric_limits<double>::infinity();
}

bool nonneg_finite(double v) {
  return std::isfinite(v) && v >= 0.0;
}

// Per-pack sums of one quantity over slices and buckets; `get_s`/`get_b` pick the quantity.
template <class FS, class FB>
std::vector<double> pack_sums(const MilpPhase2Input& in, const std::vector<int>& slice_pack,
                              const std::vector<std::vector<int>>& counts, int packs, FS get_s,
                              FB get_b) {
  std::vector<double> sum(static_cast<size_t>(packs), 0.0);
  for (size_t i = 0; i < in.slices.size(); ++i) sum[slice_pack[i]] += get_s(in.slices[i]);
  for (size_t k = 0; k < in.buckets.size(); ++k) {
    for (int m = 0; m < packs; ++m) sum[m] += counts[k][m] * get_b(in.buckets[k]);
  }
  return sum;
}

bool check_shape(const MilpPhase2Input& in, const MilpPhase2Solution& sol, std::string* v) {
  if (sol.slice_fwd_pack.size() != in.slices.size() ||
      sol.slice_bwd_pack.size() != in.slices.size()) {
    return fail(v, "solution has a slice pack vector of the wrong size");
  }
  if (sol.bucket_fwd_count.size() != in.buckets.size() ||
      sol.bucket_bwd_count.size() != in.buckets.size()) {
    return fail(v, "solution has a bucket count table of the wrong size");
  }
  for (size_t i = 0; i < in.slices.size(); ++i) {
    if (sol.slice_fwd_pack[i] < 0 || sol.slice_fwd_pack[i] >= in.mf || sol.slice_bwd_pack[i] < 0 ||
        sol.slice_bwd_pack[i] >= in.mb) {
      return fail(v, "slice " + std::to_string(i) + " is assigned to a pack out of range");
    }
  }
  for (size_t k = 0; k < in.buckets.size(); ++k) {
    const auto& f = sol.bucket_fwd_count[k];
    const auto& b = sol.bucket_bwd_count[k];
    if (f.size() != static_cast<size_t>(in.mf) || b.size() != static_cast<size_t>(in.mb)) {
      return fail(v, "bucket " + std::to_string(k) + " has a count row of the wrong size");
    }
    long fs = 0, bs = 0;
    bool negative = false;
    for (int c : f) fs += c, negative |= c < 0;
    for (int c : b) bs += c, negative |= c < 0;
    if (negative || fs != in.buckets[k].count || bs != in.buckets[k].count) {
      return fail(v, "bucket " + std::to_string(k) +
                         ": counts per pass must be non-negative and sum to " +
                         std::to_string(in.buckets[k].count));
    }
  }
  return true;
}

bool check_order(const MilpPhase2Input& in, const MilpPhase2Solution& sol, std::string* v) {
  for (const auto& g : milp_detail::group_slices(in)) {
    const auto& ids = g.slice_ids;
    for (size_t j = 0; j + 1 < ids.size(); ++j) {
      const std::string where = "sequence " + std::to_string(g.seq) + " slices " +
                                std::to_string(in.slices[ids[j]].index) + "/" +
                                std::to_string(in.slices[ids[j + 1]].index);
      if (sol.slice_fwd_pack[ids[j]] > sol.slice_fwd_pack[ids[j + 1]]) {
        return fail(v, "L1: " + where + " are out of order in the forward packs");
      }
      if (sol.slice_bwd_pack[ids[j]] < sol.slice_bwd_pack[ids[j + 1]]) {
        return fail(v, "L2: " + where + " are not in reverse order in the backward packs");
      }
    }
    const int last = ids.back();
    int first_bwd = in.mb;
    for (int id : ids) first_bwd = std::min(first_bwd, sol.slice_bwd_pack[id]);
    if (sol.slice_fwd_pack[last] > milp_detail::ready_limit(in, first_bwd)) {
      return fail(v, "L3: sequence " + std::to_string(g.seq) + " is in backward pack " +
                         std::to_string(first_bwd) + " before its last slice's forward pack " +
                         std::to_string(sol.slice_fwd_pack[last]) + " is done");
    }
  }
  for (size_t k = 0; k < in.buckets.size(); ++k) {
    long done_bwd = 0;
    for (int b = 0; b < in.mb; ++b) {
      done_bwd += sol.bucket_bwd_count[k][b];
      long done_fwd = 0;
      for (int m = 0; m <= milp_detail::ready_limit(in, b); ++m)
        done_fwd += sol.bucket_fwd_count[k][m];
      if (done_bwd > done_fwd) {
        return fail(v, "L3: bucket " + std::to_string(k) + " has " + std::to_string(done_bwd) +
                           " sequences in backward packs <= " + std::to_string(b) + " but only " +
                           std::to_string(done_fwd) + " forwarded in time");
      }
    }
  }
  return true;
}

}  // namespace

namespace {
InfeasibleDetail token_cap_detail(double tokens, double cap) {
  InfeasibleDetail detail;
  detail.limit = Limit::TokenCap;
  detail.needed = tokens;
  detail.cap = cap;
  return detail;
}
}  // namespace

Status validate_phase2_input(const MilpPhase2Input& in) {
  if (in.mf < 1 || in.mb < 1) return Error::bad_input("phase 2: mf and mb must be at least 1");
  if (in.warmup_extra < 0 || in.pipeline_stages < 1) {
    return Error::bad_input("phase 2: warmup_extra must be >= 0 and pipeline_stages >= 1");
  }
  if (!nonneg_finite(in.token_cap) || !nonneg_finite(in.memory_cap_bytes) ||
      !nonneg_finite(in.static_bytes) || !std::isfinite(in.time_limit_s)) {
    return Error::bad_input("phase 2: caps, static bytes and time limit must be finite and >= 0");
  }
  for (size_t i = 0; i < in.slices.size(); ++i) {
    const auto& s = in.slices[i];
    const std::string name = "phase 2: slice " + std::to_string(i) + " (sequence " +
                             std::to_string(s.seq) + ", index " + std::to_string(s.index) + ")";
    if (!nonneg_finite(s.fwd_time) || !nonneg_finite(s.bwd_time) || !nonneg_finite(s.tokens) ||
        !nonneg_finite(s.act_bytes)) {
      return Error::bad_input(name + ": times, tokens and bytes must be finite and >= 0");
    }
    if (in.token_cap > 0 && s.tokens > in.token_cap) {
      std::ostringstream os;
      os << name << ": " << s.tokens << " tokens exceed the pack token cap " << in.token_cap
         << " by " << s.tokens - in.token_cap;
      return Error::infeasible(os.str(), token_cap_detail(s.tokens, in.token_cap));
    }
  }
  for (const auto& g : milp_detail::group_slices(in)) {
    for (size_t j = 0; j < g.slice_ids.size(); ++j) {
      if (in.slices[g.slice_ids[j]].index != static_cast<int>(j)) {
        return Error::bad_input("phase 2: sequence " + std::to_string(g.seq) +
                                " must have slice indices 0.." +
                                std::to_string(g.slice_ids.size() - 1) + " exactly once");
      }
    }
  }
  for (size_t k = 0; k < in.buckets.size(); ++k) {
    const auto& b = in.buckets[k];
    const std::string name = "phase 2: short bucket " + std::to_string(k);
    if (b.count < 0 || !nonneg_finite(b.length) || !nonneg_finite(b.fwd_time) ||
        !nonneg_finite(b.bwd_time) || !nonneg_finite(b.act_bytes)) {
      return Error::bad_input(name + ": count, length, times and bytes must be finite and >= 0");
    }
    if (in.token_cap > 0 && b.count > 0 && b.length > in.token_cap) {
      std::ostringstream os;
      os << name << ": a sequence of " << b.length << " tokens exceeds the pack token cap "
         << in.token_cap << " by " << b.length - in.token_cap;
      return Error::infeasible(os.str(), token_cap_detail(b.length, in.token_cap));
    }
  }
  if (in.memory_cap_bytes > 0 && in.static_bytes > in.memory_cap_bytes) {
    std::ostringstream os;
    os << "phase 2: static memory " << in.static_bytes << " B exceeds the stage memory cap "
       << in.memory_cap_bytes << " B by " << in.static_bytes - in.memory_cap_bytes << " B";
    InfeasibleDetail detail;
    detail.limit = Limit::StaticMemory;
    detail.stage = 0;  // phase 2 models stage 0, which holds the most packs in flight
    detail.needed = in.static_bytes;
    detail.cap = in.memory_cap_bytes;
    return Error::infeasible(os.str(), detail);
  }
  return Status::success();
}

void compute_phase2_loads(const MilpPhase2Input& in, MilpPhase2Solution& sol) {
  auto fwd = pack_sums(
      in, sol.slice_fwd_pack, sol.bucket_fwd_count, in.mf,
      [](const MilpSlice& s) { return s.fwd_time; },
      [](const MilpShortBucket& b) { return b.fwd_time; });
  auto bwd = pack_sums(
      in, sol.slice_bwd_pack, sol.bucket_bwd_count, in.mb,
      [](const MilpSlice& s) { return s.bwd_time; },
      [](const MilpShortBucket& b) { return b.bwd_time; });
  sol.z_f = *std::max_element(fwd.begin(), fwd.end());
  sol.z_b = *std::max_element(bwd.begin(), bwd.end());
}

double evaluate_phase2(const MilpPhase2Input& in, const MilpPhase2Solution& sol,
                       std::string* violation) {
  if (in.mf < 1 || in.mb < 1) return reject(violation, "mf and mb must be at least 1");
  if (!check_shape(in, sol, violation) || !check_order(in, sol, violation)) {
    return std::numeric_limits<double>::infinity();
  }

  if (in.token_cap > 0) {
    auto tok_s = [](const MilpSlice& s) { return s.tokens; };
    auto tok_b = [](const MilpShortBucket& b) { return b.length; };
    auto f = pack_sums(in, sol.slice_fwd_pack, sol.bucket_fwd_count, in.mf, tok_s, tok_b);
    auto b = pack_sums(in, sol.slice_bwd_pack, sol.bucket_bwd_count, in.mb, tok_s, tok_b);
    for (int m = 0; m < in.mf; ++m) {
      if (!within(f[m], in.token_cap)) {
        return reject(violation, "L5: forward pack " + std::to_string(m) + " holds " +
                                     std::to_string(f[m]) + " tokens, over the cap");
      }
    }
    for (int m = 0; m < in.mb; ++m) {
      if (!within(b[m], in.token_cap)) {
        return reject(violation, "L5: backward pack " + std::to_string(m) + " holds " +
                                     std::to_string(b[m]) + " tokens, over the cap");
      }
    }
  }
  if (in.memory_cap_bytes > 0) {
    auto act_s = [](const MilpSlice& s) { return s.act_bytes; };
    auto act_b = [](const MilpShortBucket& b) { return b.act_bytes; };
    auto f = pack_sums(in, sol.slice_fwd_pack, sol.bucket_fwd_count, in.mf, act_s, act_b);
    auto b = pack_sums(in, sol.slice_bwd_pack, sol.bucket_bwd_count, in.mb, act_s, act_b);
    for (int bp = 0; bp < in.mb; ++bp) {
      double held = in.static_bytes;
      for (int m = 0; m < milp_detail::stage0_forwards_before(in, bp); ++m) held += f[m];
      for (int q = 0; q < bp; ++q) held -= b[q];
      if (!within(held, in.memory_cap_bytes)) {
        return reject(violation, "L4: stage 0 holds " + std::to_string(held) +
                                     " B while backward pack " + std::to_string(bp) +
                                     " runs, over the cap");
      }
    }
  }
  MilpPhase2Solution copy = sol;
  compute_phase2_loads(in, copy);
  if (violation) violation->clear();
  return copy.z_f + copy.z_b;
}

}  // namespace slimpack
