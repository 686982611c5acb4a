// `slimpack`: the two-phase solver of docs/design.md section 5. Phase 1 assigns sequences to
// replicas (LPT + improving swaps, DP-Merge of outliers); phase 2 builds asymmetric forward and
// backward packs per replica for every candidate (S, Mf, Mb, w, long share); the best few
// candidates and the symmetric `sliced` plan for the same S are simulated, the fastest plan that
// fits memory wins, and a last local-search round runs with the simulator in the loop.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "sim/simulator.h"
#include "solver/slimpack/candidate.h"
#include "solver/slimpack/exact.h"
#include "solver/strategies.h"

namespace slimpack::solver_detail {
namespace {

using sp::Candidate;

// Slice sizes every solve tries (plus the user's); each is a candidate family.
constexpr Tokens kSliceCandidates[] = {2048, 4096, 8192, 16384};
constexpr Tokens kSlicedCandidates[] = {1024, 2048, 4096, 8192, 16384};
constexpr std::size_t kSimulatedCandidates = 3;
constexpr std::size_t kSimulatedSymmetric = 1;
constexpr int kLocalOpsPerPack = 8;

// `gated`: the plan already passed gate_legality (solve_sliced's own plans), so the legality
// check, the most expensive part at 4M tokens, is not run twice.
Expected<double> simulated_time(Plan& plan, const SolveInput& in, const Limits& lim,
                                const CancelToken& cancel, bool gated = false) {
  if (!gated)
    if (Status s = gate_legality(plan, lim); !s) return s.error();
  SimOptions opt;
  opt.check_legality = false;  // just checked
  opt.memory_timeline = false;
  opt.keep_ops = false;
  opt.critical_path = false;
  Expected<SimResult> sim = simulate(plan, in.cost, opt, cancel);
  if (!sim) return sim.error();
  return sim->iteration_time;
}

std::string seq_ids(const Batch& b, const std::vector<SeqIndex>& list, std::size_t max) {
  std::string out;
  for (std::size_t k = 0; k < list.size() && k < max; ++k)
    out += (k ? "," : "") + b.sequences[static_cast<std::size_t>(list[k])].id;
  if (list.size() > max) out += ",...";
  return out;
}

}  // namespace

Expected<SolveResult> solve_slimpack(const SolveInput& in, const CancelToken& cancel,
                                     ProgressSink& progress) {
  if (in.params.exact)
    if (Status s = exact_mode_available(); !s) return s.error();
  const auto t0 = std::chrono::steady_clock::now();
  const StrategyParams& prm = in.params;
  const CostModel& cost = *in.cost;
  const Limits lim = limits_of(cost);
  const TimeLines lines = time_lines(cost);
  const int d = std::max(1, cost.parallel().dp);
  const int pp = std::max(1, cost.parallel().pp);
  int max_shards = 1;
  while (prm.dp_merge && max_shards * 2 <= std::min(d, 8)) max_shards *= 2;

  // A slice size the user chose is honoured (the GUI's slider and `sweep --slice` tune it); only
  // S = 0 (auto) lets phase 2 try the candidate set.
  std::vector<Tokens> slices(std::begin(kSliceCandidates), std::end(kSliceCandidates));
  if (prm.slice_size > 0) slices.assign(1, prm.slice_size);
  if (Status s = check_sequences_fit(in.batch, lim, max_shards,
                                     *std::min_element(slices.begin(), slices.end()));
      !s)
    return s.error();

  std::vector<double> work(in.batch.sequences.size());
  for (std::size_t i = 0; i < work.size(); ++i) {
    const Tokens n = in.batch.sequences[i].length;
    work[i] = lines.fwd.work(static_cast<double>(n), pairs_of(0, n)) +
              lines.bwd.work(static_cast<double>(n), pairs_of(0, n));
  }
  progress.report("slimpack: phase 1", 0.0);
  sp::Phase1Options p1opt;
  p1opt.dp_aware = prm.dp_aware;
  p1opt.dp_merge = prm.dp_merge;
  p1opt.max_shards = max_shards;
  const sp::Phase1 p1 = sp::run_phase1(in.batch, work, lim, d, p1opt);
  const double t_phase1 = seconds_since(t0);

  sp::BuildContext ctx;
  ctx.input = &in;
  ctx.phase1 = &p1;
  ctx.limits = &lim;
  ctx.lines = &lines;
  std::vector<std::unique_ptr<std::vector<std::vector<sp::Item>>>> item_sets;
  std::vector<Candidate> cands;
  std::string last_why;
  for (std::size_t k = 0; k < slices.size(); ++k) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("slimpack: phase 2",
                    static_cast<double>(k) / static_cast<double>(slices.size()));
    const Tokens slice = slices[k];
    auto& items = *item_sets.emplace_back(std::make_unique<std::vector<std::vector<sp::Item>>>());
    Tokens most = 0;
    int fewest_slices = 1 << 30;
    double long_f = 0.0, all_f = 0.0, most_work = 0.0;
    for (int r = 0; r < d; ++r) {
      items.push_back(sp::make_items(in.batch, p1, r, slice, cost, lines));
      Tokens t = 0;
      int n = 0;
      double w = 0.0;
      for (const sp::Item& it : items.back()) {
        w += it.f_total + it.b_total;
        for (Tokens x : it.tok) t += x;
        n += it.slices();
        all_f += it.f_total;
        if (it.is_long()) long_f += it.f_total;
      }
      most = std::max(most, t);
      most_work = std::max(most_work, w);
      fewest_slices = std::min(fewest_slices, std::max(1, n));
    }
    Tokens capacity = lim.memory_pack_tokens > 0 ? std::max(lim.memory_pack_tokens, slice) : 0;
    if (lim.token_cap > 0)
      capacity = capacity > 0 ? std::min(capacity, lim.token_cap) : lim.token_cap;
    ctx.token_cap = capacity;
    // Pack counts: the forced one, or M* of balanced_pack_count() with half and twice as many
    // (slices are not infinitely divisible, so M* is only where the search starts).
    const int lower = auto_pack_count(most, capacity, pp);
    const int m0 = prm.packs > 0 ? std::min(prm.packs, fewest_slices)
                                 : balanced_pack_count(most_work, lines.fwd.c0 + lines.bwd.c0, pp,
                                                       lower, fewest_slices);
    std::vector<int> mfs{m0};
    if (prm.packs == 0) {
      for (int m :
           {std::max(std::min(lower, fewest_slices), m0 / 2), std::min(2 * m0, fewest_slices)})
        if (std::find(mfs.begin(), mfs.end(), m) == mfs.end()) mfs.push_back(m);
    }
    const double phi = all_f > 0.0 ? long_f / all_f : 0.0;
    std::vector<double> shares{1.0};
    if (phi > 0.0 && 2.0 * phi < 0.9) shares.push_back(std::max(0.25, 2.0 * phi));
    for (int mf : mfs) {
      for (double share : shares) {
        ctx.local_ops = kLocalOpsPerPack * mf;
        sp::Shape shape{slice, mf, mf, 0, share, prm.schedule, pp};
        std::string why;
        // With asymmetry on, the symmetric build of the same shape competes too: where memory is
        // tight it can win, and asymmetry must never make slimpack slower than without it.
        for (bool asym : {prm.asymmetric, false}) {
          // The symmetric alternative is built once per slice size (M* packs, whole share) to
          // keep the heuristic within its time budget.
          if (!asym && prm.asymmetric && (mf != m0 || share != 1.0)) continue;
          auto cand = sp::build_candidate(ctx, items, shape, asym, &why);
          if (cand)
            cands.push_back(std::move(*cand));
          else
            last_why = "S=" + std::to_string(slice) + " Mf=" + std::to_string(mf) + ": " + why;
          if (!prm.asymmetric) break;
        }
      }
    }
  }
  const double t_phase2 = seconds_since(t0) - t_phase1;

  // Selection: simulate the best estimated candidates and the symmetric `sliced` plans.
  progress.report("slimpack: selection", 0.0);
  std::stable_sort(cands.begin(), cands.end(),
                   [](const Candidate& a, const Candidate& b) { return a.estimate < b.estimate; });
  double best_time = 0.0;
  int best = -1;  // index into cands, or -2 for a sliced plan
  Plan best_plan;
  std::string best_label;
  int simulated = 0;
  Error last_error = Error::infeasible("slimpack: no candidate plan fits (" + last_why + ")");
  // The best few candidates that pass the legality gate are simulated; a candidate the gate rejects
  // (e.g. L4 by a margin the incremental memory estimate missed) does not use up a place.
  std::size_t accepted = 0;
  // The best few of each kind by estimate (the estimate favours asymmetric packs; the simulator
  // decides, so asymmetry never makes slimpack slower than its own symmetric build).
  std::size_t accepted_sym = 0;
  int best_asym = -1;  // the best simulated asymmetric candidate: local search polishes it
  double best_asym_time = 0.0;
  for (std::size_t c = 0; c < cands.size(); ++c) {
    std::size_t& quota = cands[c].asymmetric ? accepted : accepted_sym;
    const std::size_t limit =
        cands[c].asymmetric || !prm.asymmetric ? kSimulatedCandidates : kSimulatedSymmetric;
    if (quota >= limit) continue;
    if (cancel.cancelled()) return Error::cancelled();
    Expected<double> t = simulated_time(cands[c].plan, in, lim, cancel);
    ++simulated;
    if (!t) {
      if (t.error().kind == ErrorKind::Cancelled) return t.error();
      last_error = t.error();
      continue;
    }
    ++quota;
    if (best == -1 || *t < best_time) best_time = *t, best = static_cast<int>(c);
    if (cands[c].asymmetric && (best_asym == -1 || *t < best_asym_time))
      best_asym_time = *t, best_asym = static_cast<int>(c);
  }
  // The symmetric plan at every slice size of the automatic range (1024..16384) competes too:
  // where memory is tight the estimate ranks slice sizes poorly (pipeline fill and recompute are
  // not in it), and the simulator is what decides. A user's S is honoured as it stands.
  std::vector<Tokens> sliced_s;
  if (prm.slice_size > 0)
    sliced_s.push_back(prm.slice_size);
  else
    sliced_s.assign(std::begin(kSlicedCandidates), std::end(kSlicedCandidates));
  for (Tokens s : sliced_s) {
    if (cancel.cancelled()) return Error::cancelled();
    SolveInput copy = in;
    copy.params.slice_size = s;
    Expected<SolveResult> sl = solve_sliced(copy, cancel, ProgressSink::none());
    if (!sl) {
      if (sl.error().kind == ErrorKind::Cancelled) return sl.error();
      continue;
    }
    Expected<double> t = simulated_time(sl->plan, in, lim, cancel, true);
    ++simulated;
    if (t && (best == -1 || *t < best_time)) {
      best_time = *t;
      best = -2;
      best_plan = std::move(sl->plan);
      best_label = "symmetric sliced S=" + std::to_string(s) + " (" + sl->stats.notes + ")";
    }
  }
  if (best == -1) return last_error;
  const double t_select = seconds_since(t0) - t_phase1 - t_phase2;

  // A final local-search round with the simulator judging: kept only when the simulated
  // iteration time improves.
  // The best asymmetric candidate gets it even when a symmetric plan leads: moving slices
  // between its packs is where asymmetry earns its keep.
  int local_ops = 0;
  if (best_asym >= 0) {
    Candidate& win = cands[static_cast<std::size_t>(best_asym)];
    progress.report("slimpack: local search", 0.0);
    Candidate trial = win;
    Tokens context = 0;
    for (const auto& list : *win.items)
      for (const sp::Item& it : list)
        if (it.is_long()) context = std::max(context, it.cut.back());
    const auto room = sp::stage_token_room(lim, context);
    const auto fb = sp::forwards_before(win.shape);
    int ops = 0;
    for (std::size_t r = 0; r < trial.layouts.size(); ++r)
      ops += sp::local_search((*win.items)[r], win.shape, ctx.token_cap, room, fb,
                              4 * kLocalOpsPerPack * win.shape.mf, trial.layouts[r]);
    if (ops > 0) {
      sp::assemble_plan(ctx, trial);
      Expected<double> t = simulated_time(trial.plan, in, lim, cancel);
      ++simulated;
      if (t && *t < best_time) {
        best_time = *t;
        best = best_asym;
        trial.local_ops += ops;
        win = std::move(trial);
      }
    }
  }
  if (best >= 0) {
    const Candidate& win = cands[static_cast<std::size_t>(best)];
    local_ops = win.local_ops;
    best_plan = win.plan;
    best_label = win.label;
  }
  const double t_local = seconds_since(t0) - t_phase1 - t_phase2 - t_select;

  SolveResult out;
  out.plan = std::move(best_plan);
  out.plan.strategy = "slimpack";
  out.stats.phase_seconds = {{"phase 1", t_phase1},
                             {"phase 2", t_phase2},
                             {"selection", t_select},
                             {"local search", t_local}};
  out.stats.candidates = simulated;
  fill_objective(out.plan, lines, out.stats);
  std::string merged;
  for (const sp::MergedSeq& m : p1.merged)
    merged += (merged.empty() ? "" : ",") + in.batch.sequences[static_cast<std::size_t>(m.seq)].id +
              "x" + std::to_string(m.shards) + "@r" + std::to_string(m.first);
  char buf[96];
  std::snprintf(buf, sizeof buf, " simulated=%.6gs", best_time);
  out.stats.notes = "chosen: " + best_label + buf +
                    "; candidates built=" + std::to_string(cands.size()) + "; outliers=[" +
                    seq_ids(in.batch, p1.outliers, 8) + "]; merged=[" + merged +
                    "]; phase-1 swaps=" + std::to_string(p1.swaps) +
                    "; local-search ops=" + std::to_string(local_ops);
  if (prm.exact) {
    Status s = run_exact_phase2(in, out, cancel, progress);
    if (!s) return s.error();
  }
  return out;
}

}  // namespace slimpack::solver_detail
