// `balanced`: whole sequences, greedy min-max on estimated forward + backward time (linear +
// quadratic attention terms of the cost model), WLB-LLM-like. Longest first into the currently
// lightest of M packs; backward packs repeat the forward packs (symmetric, w = 0).
//
// M is params.packs when given, else balanced_pack_count(): M* = sqrt((p - 1) W / c0) for the
// heaviest replica's work W and the per-pack constant c0, but at least max(pp, ceil(replica tokens
// / capacity)), where capacity is the biggest pack whose activations fit stage 0 with pp packs in
// flight (and the token cap), raised to the longest sequence. M never exceeds the sequence count
// of a replica (noted when clamped).
// With d > 1, sequences go to replicas by LPT on the same time estimate.
#include <algorithm>
#include <chrono>
#include <numeric>

#include "solver/pack_builder.h"
#include "solver/strategies.h"

namespace slimpack::solver_detail {

Expected<SolveResult> solve_balanced(const SolveInput& in, const CancelToken& cancel,
                                     ProgressSink& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const Limits lim = limits_of(*in.cost);
  if (Status s = precheck_whole(in); !s) return s.error();
  const auto& seqs = in.batch.sequences;
  const TimeLines lines = time_lines(*in.cost);
  SolveResult out;
  out.plan = plan_skeleton(in, "balanced", 0);
  Plan& plan = out.plan;

  std::vector<double> work(seqs.size());
  Tokens longest = 0;
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    const double n = static_cast<double>(seqs[i].length);
    const double a = pairs_of(0, seqs[i].length);
    work[i] = lines.fwd.work(n, a) + lines.bwd.work(n, a);
    longest = std::max(longest, seqs[i].length);
  }
  progress.report("balanced: assigning replicas", 0.0);
  const auto replicas = assign_lpt(work, plan.dp());
  Tokens capacity = lim.memory_pack_tokens;
  if (lim.token_cap > 0)
    capacity = capacity > 0 ? std::min(capacity, lim.token_cap) : lim.token_cap;
  if (capacity > 0) capacity = std::max(capacity, longest);
  const auto [most, most_work] = heaviest_replica(replicas, seqs, work);
  int m = in.params.packs > 0
              ? in.params.packs
              : balanced_pack_count(most_work, lines.fwd.c0 + lines.bwd.c0, plan.stages,
                                    auto_pack_count(most, capacity, plan.stages), kMaxAutoPacks);
  if (plan.schedule == ScheduleKind::Interleaved && m % plan.stages != 0)
    m += plan.stages - m % plan.stages;
  const double t_assign = seconds_since(t0);

  std::string notes;
  bool clamp_noted = false;
  for (std::size_t r = 0; r < replicas.size(); ++r) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("balanced: packing", static_cast<double>(r) / static_cast<double>(plan.dp()));
    if (replicas[r].empty()) continue;
    const std::vector<SeqIndex> order = heaviest_first(work, replicas[r]);
    int mr = m;
    if (static_cast<std::size_t>(mr) > order.size()) {
      mr = static_cast<int>(order.size());
      if (!clamp_noted)
        notes += "M=" + std::to_string(m) + " clamped to the sequence count (" +
                 std::to_string(mr) + ") on some replica; ";
      clamp_noted = true;
    }
    std::vector<double> wts(order.size());
    std::vector<Tokens> toks(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
      wts[k] = work[static_cast<std::size_t>(order[k])];
      toks[k] = seqs[static_cast<std::size_t>(order[k])].length;
    }
    const std::vector<int> bin = greedy_min_max(wts, toks, mr, capacity);
    auto& packs = plan.replicas[r].forward;
    packs.assign(static_cast<std::size_t>(mr), Pack{});
    for (std::size_t k = 0; k < order.size(); ++k)
      packs[static_cast<std::size_t>(bin[k])].segments.push_back(Segment{order[k], 0, toks[k]});
    std::erase_if(packs, [](const Pack& p) { return p.segments.empty(); });
    plan.replicas[r].backward = packs;
  }
  const double t_pack = seconds_since(t0) - t_assign;
  if (cancel.cancelled()) return Error::cancelled();
  progress.report("balanced: legality", 1.0);
  if (Status s = gate_legality(plan, lim); !s) return s.error();
  const double t_check = seconds_since(t0) - t_assign - t_pack;

  out.stats.phase_seconds = {{"assign", t_assign}, {"pack", t_pack}, {"legality", t_check}};
  fill_objective(plan, lines, out.stats);
  out.stats.notes = notes + "capacity=" + std::to_string(capacity) + " " + describe_counts(plan);
  return out;
}

}  // namespace slimpack::solver_detail
