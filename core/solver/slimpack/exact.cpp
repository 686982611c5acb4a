#include "solver/slimpack/exact.h"

#include <algorithm>
#include <map>

#include "solver/pack_builder.h"

#if defined(SLIMPACK_HAVE_MILP)
#include "plan/schedule_order.h"
#include "sim/simulator.h"
#include "slicer/slicer.h"
#include "solver/milp/milp_phase2.h"
#endif

namespace slimpack::solver_detail {

Status exact_mode_available() {
#if defined(SLIMPACK_HAVE_MILP)
  // Loads the CBC module (the first time): a build with MILP whose module is missing says so.
  if (milp_available()) return Status::success();
  return Error::bad_field("params.exact", "exact mode: " + milp_unavailable_reason());
#else
  return Error::bad_field("params.exact", "exact mode needs a build with SLIMPACK_ENABLE_MILP");
#endif
}

#if defined(SLIMPACK_HAVE_MILP)
namespace {

// Short sequences are bucketed by length in steps of this many tokens (the MILP prices a bucket
// by its mean, so the step bounds the pricing error).
constexpr Tokens kBucketStep = 256;

struct ReplicaProblem {
  MilpPhase2Input input;
  std::vector<SeqIndex> slice_seq;  // per MILP slice
  std::vector<std::pair<Tokens, Tokens>> slice_range;
  std::vector<std::vector<SeqIndex>> bucket_seqs;  // per bucket, its sequences
};

// Builds the MILP of one replica from its plan; false when it holds DP-merged segments (they are
// pinned across replicas, which the per-replica MILP cannot express).
bool make_problem(const Plan& plan, int r, const CostModel& cost, const TimeLines& lines,
                  const Limits& lim, double time_limit, ReplicaProblem& out) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(r)];
  MilpPhase2Input& in = out.input;
  in.mf = static_cast<int>(rp.forward.size());
  in.mb = static_cast<int>(rp.backward.size());
  in.warmup_extra = plan.warmup_extra;
  in.pipeline_stages = plan.stages;
  in.token_cap = static_cast<double>(lim.token_cap);
  in.memory_cap_bytes = lim.memory.capacity_bytes;
  in.static_bytes = lim.memory.static_bytes.empty() ? 0.0 : lim.memory.static_bytes[0];
  in.time_limit_s = time_limit;
  const double act =
      lim.memory.activation_per_token.empty() ? 0.0 : lim.memory.activation_per_token[0];
  (void)cost;
  MilpPhase2Solution warm;
  std::map<Tokens, int> bucket_of;  // bucket key -> index
  std::vector<double> bucket_len;
  for (std::size_t f = 0; f < rp.forward.size(); ++f) {
    for (const Segment& s : rp.forward[f].segments) {
      if (s.shards > 1) return false;
      const Tokens n = plan.sequences[static_cast<std::size_t>(s.seq)].length;
      const Tokens slice = plan.slice_size > 0 && n > plan.slice_size ? plan.slice_size : n;
      if (slice < n) {  // a long sequence: one MILP slice per plan slice
        for (Tokens b = s.begin; b < s.end; b += slice) {
          const Tokens e = std::min(s.end, b + slice);
          MilpSlice ms;
          ms.seq = s.seq;
          ms.index = static_cast<int>(b / slice);
          ms.fwd_time = lines.fwd.work(static_cast<double>(e - b), pairs_of(b, e));
          ms.bwd_time = lines.bwd.work(static_cast<double>(e - b), pairs_of(b, e));
          ms.tokens = static_cast<double>(e - b);
          ms.act_bytes = ms.tokens * act;
          in.slices.push_back(ms);
          out.slice_seq.push_back(s.seq);
          out.slice_range.emplace_back(b, e);
          warm.slice_fwd_pack.push_back(static_cast<int>(f));
        }
        continue;
      }
      const Tokens key = (n + kBucketStep - 1) / kBucketStep;
      auto [it, fresh] = bucket_of.try_emplace(key, static_cast<int>(out.bucket_seqs.size()));
      if (fresh) {
        out.bucket_seqs.emplace_back();
        warm.bucket_fwd_count.emplace_back(static_cast<std::size_t>(in.mf), 0);
        warm.bucket_bwd_count.emplace_back(static_cast<std::size_t>(in.mb), 0);
      }
      out.bucket_seqs[static_cast<std::size_t>(it->second)].push_back(s.seq);
      ++warm.bucket_fwd_count[static_cast<std::size_t>(it->second)][f];
    }
  }
  // Backward positions of the warm start.
  std::vector<int> seq_bucket(plan.sequences.size(), -1);
  for (std::size_t k = 0; k < out.bucket_seqs.size(); ++k)
    for (SeqIndex q : out.bucket_seqs[k])
      seq_bucket[static_cast<std::size_t>(q)] = static_cast<int>(k);
  warm.slice_bwd_pack.assign(in.slices.size(), 0);
  for (std::size_t b = 0; b < rp.backward.size(); ++b) {
    for (const Segment& s : rp.backward[b].segments) {
      const int k = seq_bucket[static_cast<std::size_t>(s.seq)];
      if (k >= 0) {
        ++warm.bucket_bwd_count[static_cast<std::size_t>(k)][b];
        continue;
      }
      for (std::size_t i = 0; i < in.slices.size(); ++i)
        if (out.slice_seq[i] == s.seq && out.slice_range[i].first >= s.begin &&
            out.slice_range[i].second <= s.end)
          warm.slice_bwd_pack[i] = static_cast<int>(b);
    }
  }
  for (std::size_t k = 0; k < out.bucket_seqs.size(); ++k) {
    MilpShortBucket bk;
    bk.count = static_cast<int>(out.bucket_seqs[k].size());
    for (SeqIndex q : out.bucket_seqs[k]) {
      const Tokens n = plan.sequences[static_cast<std::size_t>(q)].length;
      bk.length += static_cast<double>(n);
      bk.fwd_time += lines.fwd.work(static_cast<double>(n), pairs_of(0, n));
      bk.bwd_time += lines.bwd.work(static_cast<double>(n), pairs_of(0, n));
    }
    bk.length /= bk.count;
    bk.fwd_time /= bk.count;
    bk.bwd_time /= bk.count;
    bk.act_bytes = bk.length * act;
    in.buckets.push_back(bk);
  }
  compute_phase2_loads(in, warm);
  in.warm_start = warm;
  return true;
}

// The MILP solution as packs. A bucket's sequences are matched to forward slots in pack order and
// to backward slots in pack order, so the k-th sequence forwarded is the k-th backwarded; the
// bucket readiness rows make that legal (L3).
ReplicaPlan to_packs(const Plan& plan, const ReplicaProblem& pr, const MilpPhase2Solution& sol) {
  ReplicaPlan rp;
  rp.forward.assign(static_cast<std::size_t>(pr.input.mf), Pack{});
  rp.backward.assign(static_cast<std::size_t>(pr.input.mb), Pack{});
  for (std::size_t i = 0; i < pr.slice_seq.size(); ++i) {
    const Segment seg{pr.slice_seq[i], pr.slice_range[i].first, pr.slice_range[i].second};
    rp.forward[static_cast<std::size_t>(sol.slice_fwd_pack[i])].segments.push_back(seg);
    rp.backward[static_cast<std::size_t>(sol.slice_bwd_pack[i])].segments.push_back(seg);
  }
  for (std::size_t k = 0; k < pr.bucket_seqs.size(); ++k) {
    std::size_t next = 0;
    for (std::size_t f = 0; f < sol.bucket_fwd_count[k].size(); ++f)
      for (int c = 0; c < sol.bucket_fwd_count[k][f]; ++c) {
        const SeqIndex q = pr.bucket_seqs[k][next++];
        rp.forward[f].segments.push_back(
            Segment{q, 0, plan.sequences[static_cast<std::size_t>(q)].length});
      }
    next = 0;
    for (std::size_t b = 0; b < sol.bucket_bwd_count[k].size(); ++b)
      for (int c = 0; c < sol.bucket_bwd_count[k][b]; ++c) {
        const SeqIndex q = pr.bucket_seqs[k][next++];
        rp.backward[b].segments.push_back(
            Segment{q, 0, plan.sequences[static_cast<std::size_t>(q)].length});
      }
  }
  for (auto* list : {&rp.forward, &rp.backward})
    for (Pack& p : *list) normalize_segments(p.segments);
  return rp;
}

}  // namespace
#endif

Status run_exact_phase2(const SolveInput& in, SolveResult& result, const CancelToken& cancel,
                        ProgressSink& progress) {
#if defined(SLIMPACK_HAVE_MILP)
  if (Status s = exact_mode_available(); !s) return s;
  const Limits lim = limits_of(*in.cost);
  const TimeLines lines = time_lines(*in.cost);
  Plan trial = result.plan;
  double objective = 0.0, bound = 0.0;
  bool optimal = true;
  int solved = 0, skipped = 0;
  for (int r = 0; r < trial.dp(); ++r) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("slimpack: exact phase 2", static_cast<double>(r) / trial.dp());
    ReplicaProblem pr;
    if (!make_problem(trial, r, *in.cost, lines, lim, in.params.time_limit_s, pr)) {
      ++skipped;
      continue;
    }
    Expected<MilpPhase2Result> res = solve_phase2_milp(pr.input, cancel, ProgressSink::none());
    if (!res) {
      if (res.error().kind == ErrorKind::Cancelled) return res.error();
      ++skipped;
      continue;
    }
    ++solved;
    // The MILP leaves out the per-pack constant; add it back so the figures compare with the
    // heuristic's zF + zB.
    const double c0 = lines.fwd.c0 + lines.bwd.c0;
    objective = std::max(objective, res->objective + c0);
    bound = std::max(bound, res->bound + c0);
    optimal = optimal && res->proven_optimal;
    trial.replicas[static_cast<std::size_t>(r)] = to_packs(trial, pr, res->solution);
    if (res->cancelled) return Error::cancelled();
  }
  std::string note = "; exact: " + std::to_string(solved) + " replica(s) by MILP";
  if (skipped > 0)
    note += ", " + std::to_string(skipped) + " kept heuristic (DP-merged or no solution)";
  if (solved > 0) {
    SimOptions opt;
    opt.memory_timeline = false;
    opt.keep_ops = false;
    opt.critical_path = false;
    Expected<SimResult> before = simulate(result.plan, in.cost, opt, cancel);
    Expected<SimResult> after = gate_legality(trial, lim)
                                    ? simulate(trial, in.cost, opt, cancel)
                                    : Expected<SimResult>(Error::infeasible("L4"));
    if (after && before && after->iteration_time <= before->iteration_time) {
      result.plan = std::move(trial);
      note += ", kept (simulated " + std::to_string(after->iteration_time) + " s)";
    } else {
      note += ", heuristic plan kept (MILP plan slower or over memory in simulation)";
    }
    if (skipped == 0) {
      result.stats.objective = objective;
      result.stats.bound = std::min(bound, objective);
      result.stats.gap = objective > 0.0 ? (objective - result.stats.bound) / objective : 0.0;
      result.stats.proven_optimal = optimal;
    }
  }
  result.stats.notes += note;
  return Status::success();
#else
  (void)in, (void)result, (void)cancel, (void)progress;
  return exact_mode_available();
#endif
}

}  // namespace slimpack::solver_detail
