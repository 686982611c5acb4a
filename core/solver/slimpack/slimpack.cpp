// `slimpack`: the two-phase solver of docs/design.md section 5, as named steps:
//   1. phase 1 assigns sequences to replicas (LPT + improving swaps, DP-Merge of outliers);
//   2. per slice size, the candidate shapes (S, Mf, long share) and their symmetric builds (the
//      candidates of the `asymmetric = false` ablation);
//   3. the asymmetric builds (backward packs from the ready pool, Mb = Mf and the memory-aware
//      drain with Mb = Mf - w) for the shapes whose symmetric build ranks best;
//   4. selection: the best few candidates of each kind and the `sliced` plans of the automatic
//      slice range are simulated, the fastest legal plan wins;
//   5. a last local-search round on the best asymmetric candidate, kept when the simulator says
//      it is faster.
// Steps 2 to 5 run once per cell (S, pack count) of the automatic choice: with S automatic, every
// slice size the explorer's sweep shows (swept_slice_sizes()); with the packs automatic on a
// small batch, every pack count up to kPackSweep as well as the balanced one. A cell is the solve
// `--slice S --packs M` makes, so an automatic choice is never slower than a value the user can
// pick; cells after the first simulate only what their estimate says can beat the best so far.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

#include "sim/simulator.h"
#include "solver/sliced_build.h"
#include "solver/slimpack/candidate.h"
#include "solver/slimpack/estimate.h"
#include "solver/slimpack/exact.h"
#include "solver/strategies.h"

namespace slimpack::solver_detail {
namespace {

using sp::BackwardKind;
using sp::Candidate;

// Automatic packs on a batch of at most this many tokens per replica also try every explicit pack
// count 1..kPackSweep (a small batch builds its candidates in microseconds; on a large one the
// balanced count and its neighbours are where the fast plans are).
constexpr Tokens kPackSweepTokens = 256 * 1024;
constexpr int kPackSweep = 32;
// Candidates simulated per kind (asymmetric, symmetric); the symmetric quota equals the
// ablation's, so slimpack simulates every plan its `asymmetric = false` ablation simulates.
constexpr std::size_t kSimulatedAsymmetric = 4;
constexpr std::size_t kSimulatedSymmetric = 3;
// A candidate whose estimate is this much above the best estimate of its kind is not simulated:
// the estimate tracks the simulator within a few percent and ranks close shapes in the same
// order (docs/strategies.md), and simulating at 4M tokens costs as much as building.
constexpr double kEstimateSlack = 0.03;
// The estimate leaves out pipeline fill, P2P and the bubbles of long w chains, so it stays below
// the simulated time (at most about 1% above it on the presets): a plan whose estimate is more
// than this above the fastest simulated time so far cannot win and is not simulated.
constexpr double kBoundSlack = 0.06;
// A candidate whose estimated peak memory (estimate.h) passes the cap by more than this factor
// goes to the legality gate only when nothing else fits: the token-level estimate reads up to
// ~20% high (it counts a pack's activations from the pack's first forward), never low by this.
constexpr double kMemoryFillLimit = 1.3;
// Shapes (by their symmetric estimate) that also get the asymmetric builds.
constexpr std::size_t kAsymmetricShapes = 3;
constexpr int kLocalOpsPerPack = 8;
// The final local-search round may use this many times the per-candidate operations.
constexpr int kFinalLocalSearchFactor = 4;
// A second long share 2 * (long work / all work) is tried when it is below the ceiling (near 1
// it is the whole budget anyway), and never below the floor (long slices need room to start).
constexpr double kLongShareCeiling = 0.9;
constexpr double kLongShareFloor = 0.25;

// `gated`: the plan already passed gate_legality, so the legality check, the most expensive part
// at 4M tokens, is not run twice. Only the iteration time is read: no memory sweep.
Expected<double> simulated_time(Plan& plan, const SolveInput& in, const Limits& lim,
                                const CancelToken& cancel, bool gated = false) {
  if (!gated)
    if (Status s = gate_legality(plan, lim); !s) return s.error();
  SimOptions opt;
  opt.check_legality = false;  // just checked
  opt.memory_timeline = false;
  opt.memory_peaks = false;
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

// Every replica's items cut at one slice size, and what the pack shapes are derived from: the
// same for every pack count, so the cells of one S share them (cutting and ordering d replicas'
// items was a tenth of a search's time when each of the 33 pack cells of an S repeated it).
struct SliceItems {
  std::vector<std::vector<sp::Item>> items;  // candidates point into it
  std::vector<sp::ForwardOrder> orders;      // forward_order() of each replica's items
  Tokens most = 0;                           // the most tokens of any replica
  int fewest_slices = 0;                     // of any replica: no more packs than this
  double long_f = 0.0, all_f = 0.0, most_work = 0.0;
};

std::shared_ptr<const SliceItems> cut_items(const SolveInput& in, const sp::Phase1& p1,
                                            const TimeLines& lines, Tokens slice) {
  const int d = std::max(1, in.cost->parallel().dp);
  auto cut = std::make_shared<SliceItems>();
  int fewest_slices = std::numeric_limits<int>::max();
  for (int r = 0; r < d; ++r) {
    cut->items.push_back(sp::make_items(in.batch, p1, r, slice, *in.cost, lines));
    cut->orders.push_back(sp::forward_order(cut->items.back()));
    Tokens t = 0;
    int n = 0;
    double w = 0.0;
    for (const sp::Item& it : cut->items.back()) {
      w += it.f_total + it.b_total;
      for (Tokens x : it.tok) t += x;
      n += it.slices();
      cut->all_f += it.f_total;
      if (it.is_long()) cut->long_f += it.f_total;
    }
    cut->most = std::max(cut->most, t);
    cut->most_work = std::max(cut->most_work, w);
    fewest_slices = std::min(fewest_slices, std::max(1, n));
  }
  cut->fewest_slices = fewest_slices;
  return cut;
}

// The cut items of each slice size a solve has used, kept for its other cells.
class SliceItemsCache {
 public:
  std::shared_ptr<const SliceItems> get(const SolveInput& in, const sp::Phase1& p1,
                                        const TimeLines& lines, Tokens slice) {
    for (const auto& [s, cut] : cuts_)
      if (s == slice) return cut;
    return cuts_.emplace_back(slice, cut_items(in, p1, lines, slice)).second;
  }

 private:
  std::vector<std::pair<Tokens, std::shared_ptr<const SliceItems>>> cuts_;
};

// One slice size and pack count: the cut items, the pack capacity and the shapes to try.
struct SliceFamily {
  std::shared_ptr<const SliceItems> cut;
  const std::vector<std::vector<sp::Item>>* items = nullptr;  // the cut's
  Tokens token_cap = 0;
  std::vector<sp::Shape> shapes;
  // The forward packs of each shape, built by its first kind and shared by the others (symmetric
  // candidates point into it).
  std::unique_ptr<std::vector<std::vector<sp::Layout>>> forward;
  const std::vector<sp::ForwardOrder>& orders() const { return cut->orders; }
  int fewest_slices = 0;  // of any replica: no more packs than this
};

SliceFamily make_family(const SolveInput& in, std::shared_ptr<const SliceItems> cut,
                        const Limits& lim, const TimeLines& lines, Tokens slice) {
  const StrategyParams& prm = in.params;
  const int pp = std::max(1, in.cost->parallel().pp);
  SliceFamily fam;
  fam.cut = std::move(cut);
  fam.items = &fam.cut->items;
  const Tokens most = fam.cut->most;
  const int fewest_slices = fam.cut->fewest_slices;
  const double long_f = fam.cut->long_f, all_f = fam.cut->all_f, most_work = fam.cut->most_work;
  Tokens capacity = lim.memory_pack_tokens > 0 ? std::max(lim.memory_pack_tokens, slice) : 0;
  if (lim.token_cap > 0)
    capacity = capacity > 0 ? std::min(capacity, lim.token_cap) : lim.token_cap;
  fam.token_cap = capacity;
  fam.fewest_slices = fewest_slices;
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
  if (phi > 0.0 && 2.0 * phi < kLongShareCeiling)
    shares.push_back(std::max(kLongShareFloor, 2.0 * phi));
  for (int mf : mfs)
    for (double share : shares)
      fam.shapes.push_back(sp::Shape{slice, mf, mf, 0, share, prm.schedule, pp});
  fam.forward = std::make_unique<std::vector<std::vector<sp::Layout>>>(fam.shapes.size());
  return fam;
}

// All candidates of a solve, and the first reason a build failed (for the error message).
struct CandidatePool {
  std::vector<SliceFamily> families;
  std::vector<Candidate> cands;
  std::string last_why;
};

struct ShapeRef {
  std::size_t family = 0;
  std::size_t shape = 0;
  double estimate = 0.0;  // of its symmetric build
};

// `twin`: the pool index of an earlier symmetric candidate of the family with the same Mf (-1 for
// none), see build_candidate().
void add_candidate(CandidatePool& pool, const sp::BuildContext& ctx, const SliceFamily& fam,
                   const sp::Shape& shape, BackwardKind kind, std::vector<sp::Layout>* forward,
                   int twin = -1) {
  std::string why;
  sp::BuildContext local = ctx;
  local.token_cap = fam.token_cap;
  local.local_ops = kLocalOpsPerPack * shape.mf;
  local.forward_orders = &fam.orders();
  const Candidate* twin_cand = twin >= 0 ? &pool.cands[static_cast<std::size_t>(twin)] : nullptr;
  auto cand = sp::build_candidate(local, *fam.items, shape, kind, forward, &why, twin_cand, twin);
  if (cand) {
    cand->token_cap = fam.token_cap;
    cand->built_index = static_cast<int>(pool.cands.size());
    pool.cands.push_back(std::move(*cand));
  } else {
    pool.last_why =
        "S=" + std::to_string(shape.slice) + " Mf=" + std::to_string(shape.mf) + ": " + why;
  }
}

// Steps 2 and 3: symmetric builds of every shape, then the asymmetric kinds for the shapes whose
// symmetric build is estimated fastest (the forward packs are shared, so the estimate of a
// shape's symmetric build is a fair first cut among shapes).
Expected<CandidatePool> build_candidates(const sp::BuildContext& ctx,
                                         const std::vector<Tokens>& slices, SliceItemsCache& cuts,
                                         const CancelToken& cancel, ProgressSink& progress) {
  const SolveInput& in = *ctx.input;
  CandidatePool pool;
  std::vector<ShapeRef> shapes;
  for (std::size_t k = 0; k < slices.size(); ++k) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("slimpack: phase 2",
                    static_cast<double>(k) / static_cast<double>(slices.size()));
    SliceFamily& fam = pool.families.emplace_back(make_family(
        in, cuts.get(in, *ctx.phase1, *ctx.lines, slices[k]), *ctx.limits, *ctx.lines, slices[k]));
    std::vector<int> symmetric_of(fam.shapes.size(), -1);  // pool index of each shape's build
    std::vector<bool> copied(fam.shapes.size(), false);    // forward packs taken from a twin shape
    // Without DP-merged pins the forward packs depend on (S, Mf, long share) only and are cached.
    const bool cached = ctx.phase1->merged.empty();
    for (std::size_t s = 0; s < fam.shapes.size(); ++s) {
      const std::size_t before = pool.cands.size();
      // The same Mf with another long share often gives the same packs (the share never binds).
      int twin = -1;
      std::size_t twin_shape = 0;
      for (std::size_t t = 0; t < s && twin < 0; ++t)
        if (fam.shapes[t].mf == fam.shapes[s].mf && symmetric_of[t] >= 0)
          twin = symmetric_of[t], twin_shape = t;
      // When this share places every long slice as the twin shape's build did, the forward packs
      // are the twin's: copied instead of built again (the short sequences are most of the work).
      if (twin >= 0 && cached && !copied[twin_shape]) {
        const std::vector<sp::Layout>& built = (*fam.forward)[twin_shape];
        const sp::Pins pins = sp::make_pins(*fam.items, *ctx.phase1, fam.shapes[s], fam.token_cap);
        bool alike = built.size() == fam.items->size();
        for (std::size_t r = 0; alike && r < built.size(); ++r)
          alike = sp::places_longs_alike((*fam.items)[r], pins, fam.shapes[s], fam.token_cap,
                                         built[r], &fam.orders()[r]);
        if (alike) {
          (*fam.forward)[s] = built;
          copied[s] = true;
        }
      }
      add_candidate(pool, ctx, fam, fam.shapes[s], BackwardKind::Symmetric, &(*fam.forward)[s],
                    twin);
      if (pool.cands.size() > before) {
        shapes.push_back({k, s, pool.cands.back().estimate});
        symmetric_of[s] = static_cast<int>(before);
      }
    }
  }
  if (!in.params.asymmetric) return pool;
  std::stable_sort(shapes.begin(), shapes.end(),
                   [](const ShapeRef& a, const ShapeRef& b) { return a.estimate < b.estimate; });
  for (std::size_t k = 0; k < shapes.size() && k < kAsymmetricShapes; ++k) {
    if (cancel.cancelled()) return Error::cancelled();
    const ShapeRef& ref = shapes[k];
    const SliceFamily& fam = pool.families[ref.family];
    for (BackwardKind kind : {BackwardKind::Asymmetric, BackwardKind::Drain}) {
      const std::size_t before = pool.cands.size();
      add_candidate(pool, ctx, fam, fam.shapes[ref.shape], kind, &(*fam.forward)[ref.shape]);
      // A drain with w = 0 is the Mb = Mf build again: it would take a second simulation slot.
      if (kind == BackwardKind::Drain && pool.cands.size() > before &&
          pool.cands.back().shape.mb == pool.cands.back().shape.mf)
        pool.cands.pop_back();
    }
  }
  return pool;
}

// What the selection settled on: a candidate of the pool or a `sliced` plan.
struct Selection {
  double time = 0.0;
  std::optional<std::size_t> candidate;        // index into the pool, when a candidate leads
  std::optional<std::size_t> best_asymmetric;  // the best simulated asymmetric candidate
  double best_asymmetric_time = 0.0;
  Plan sliced_plan;  // when a `sliced` plan leads
  std::string sliced_label;
  int simulated = 0;
  // The fastest time of the cells before this one: a plan whose estimate says it cannot beat it
  // is not simulated.
  double bound = std::numeric_limits<double>::infinity();
  bool found() const { return candidate.has_value() || !sliced_label.empty(); }
  double to_beat() const { return found() ? std::min(time, bound) : bound; }
};

// Which failure a solve with no fitting candidate reports: the candidate that came nearest to
// fitting (the smallest overshoot of the same limit), so the message says what it would take, not
// what the last, perhaps far-off, candidate needed. A failure that is not Infeasible (a bug) is
// always reported; one with its numbers beats one without.
bool nearer_to_fitting(const Error& e, const Error& than) {
  if (e.kind != ErrorKind::Infeasible) return true;
  if (than.kind != ErrorKind::Infeasible) return false;
  if (!e.detail) return !than.detail;
  if (!than.detail) return true;
  if (e.detail->limit != than.detail->limit) return false;
  return e.detail->needed - e.detail->cap < than.detail->needed - than.detail->cap;
}

// Step 4a: the best few candidates of each kind by estimate that pass the legality gate are
// simulated; a candidate the gate rejects (e.g. L4 by a margin the estimate missed) does not use
// up a place. A candidate's plan is built here, when it is first tried.
Status simulate_candidates(std::vector<Candidate>& cands, const sp::BuildContext& ctx,
                           const CancelToken& cancel, Selection& sel, Error& last_error) {
  const SolveInput& in = *ctx.input;
  const Limits& lim = *ctx.limits;
  std::stable_sort(cands.begin(), cands.end(),
                   [](const Candidate& a, const Candidate& b) { return a.estimate < b.estimate; });
  std::size_t accepted_asym = 0, accepted_sym = 0;
  // The best estimate of each kind among the candidates that passed the gate (sorted: the first).
  std::optional<double> best_asym_estimate, best_sym_estimate;
  std::vector<std::size_t> over_memory;  // skipped as far over the cap: the last resort
  // Outcome of each plan tried, by pool index as built: a twin (the same plan) reuses it.
  std::vector<std::optional<Expected<double>>> outcome(cands.size());
  auto try_candidate = [&](std::size_t c) -> Status {
    const bool asym = cands[c].asymmetric;
    std::size_t& quota = asym ? accepted_asym : accepted_sym;
    std::optional<double>& best_estimate = asym ? best_asym_estimate : best_sym_estimate;
    if (cancel.cancelled()) return Error::cancelled();
    const auto root =
        static_cast<std::size_t>(cands[c].twin >= 0 ? cands[c].twin : cands[c].built_index);
    if (!outcome[root]) {
      if (!cands[c].planned) sp::materialize(ctx, cands[c]);
      outcome[root] = simulated_time(cands[c].plan, in, lim, cancel);
    }
    const Expected<double>& t = *outcome[root];
    ++sel.simulated;
    if (!t) {
      if (t.error().kind == ErrorKind::Cancelled) return t.error();
      if (nearer_to_fitting(t.error(), last_error)) last_error = t.error();
      return Status::success();
    }
    ++quota;
    if (!best_estimate) best_estimate = cands[c].estimate;
    if (!sel.candidate || *t < sel.time) sel.time = *t, sel.candidate = c;
    if (asym && (!sel.best_asymmetric || *t < sel.best_asymmetric_time))
      sel.best_asymmetric_time = *t, sel.best_asymmetric = c;
    return Status::success();
  };
  for (std::size_t c = 0; c < cands.size(); ++c) {
    const bool asym = cands[c].asymmetric;
    if ((asym ? accepted_asym : accepted_sym) >=
        (asym ? kSimulatedAsymmetric : kSimulatedSymmetric))
      continue;
    const std::optional<double>& best_estimate = asym ? best_asym_estimate : best_sym_estimate;
    if (best_estimate && cands[c].estimate > *best_estimate * (1.0 + kEstimateSlack)) continue;
    if (cands[c].estimate > sel.to_beat() * (1.0 + kBoundSlack)) continue;
    if (cands[c].memory_fill > kMemoryFillLimit) {
      over_memory.push_back(c);
      continue;
    }
    if (Status s = try_candidate(c); !s) return s;
  }
  // Nothing fits by the estimate: the candidates it ruled out still get the gate, in order, so
  // an estimate that is off never costs a plan.
  for (std::size_t k = 0; k < over_memory.size() && !sel.found(); ++k)
    if (cands[over_memory[k]].estimate <= sel.to_beat() * (1.0 + kBoundSlack))
      if (Status s = try_candidate(over_memory[k]); !s) return s;
  return Status::success();
}

// Step 4b: the symmetric `sliced` plan of the cell's S and pack count competes too, so slimpack is
// never slower than `sliced` with the same parameters. The legality gate, the dearest step at 4M
// tokens, runs only when the estimate does not rule the plan out: what is simulated, and what
// wins, is what solve_sliced() would have returned.
Status simulate_sliced_plan(const SolveInput& in, const Limits& lim, const TimeLines& lines,
                            const SlicedAssignment& assignment, const CancelToken& cancel,
                            Selection& sel) {
  const Tokens s = in.params.slice_size;
  if (cancel.cancelled()) return Error::cancelled();
  if (!check_sequences_fit(in.batch, lim, 1, s)) return Status::success();
  Expected<SlicedBuild> sl =
      build_sliced(in, lim, lines, assignment, s, cancel, ProgressSink::none());
  if (!sl) return sl.error().kind == ErrorKind::Cancelled ? Status(sl.error()) : Status::success();
  if (std::isfinite(sel.to_beat())) {  // estimated from the forward packs and the backward order
    sp::PlanFigures figures;
    sp::fill_plan_figures(sl->plan, *lim.cost, &sl->order, figures);
    const double estimate =
        sp::estimate_plan(figures, lim, sp::estimate_memory(figures, lim).recompute);
    if (estimate > sel.to_beat() * (1.0 + kBoundSlack)) return Status::success();
  }
  add_sliced_backward(*sl);
  if (!gate_legality(sl->plan, lim)) return Status::success();
  Expected<double> t = simulated_time(sl->plan, in, lim, cancel, true);
  ++sel.simulated;
  if (t && (!sel.found() || *t < sel.time)) {
    sel.time = *t;
    sel.candidate.reset();
    sel.sliced_label = "symmetric sliced (" + sliced_notes(*sl, s) + ")";  // notes name S
    sel.sliced_plan = std::move(sl->plan);
  }
  return Status::success();
}

// Step 5: a final local-search round with the simulator judging, on the best asymmetric
// candidate even when a symmetric plan leads (moving slices between its packs is where asymmetry
// earns its keep); kept only when the simulated iteration time improves.
void polish_best_asymmetric(CandidatePool& pool, const sp::BuildContext& ctx, const SolveInput& in,
                            const Limits& lim, const CancelToken& cancel, ProgressSink& progress,
                            Selection& sel) {
  if (!sel.best_asymmetric) return;
  Candidate& win = pool.cands[*sel.best_asymmetric];
  progress.report("slimpack: local search", 0.0);
  Candidate trial;
  {  // a copy without the plan (rebuilt below)
    Plan plan = std::move(win.plan);
    trial = win;
    win.plan = std::move(plan);
  }
  trial.planned = false;
  Tokens context = 0;
  for (const auto& list : *win.items)
    for (const sp::Item& it : list)
      if (it.is_long()) context = std::max(context, it.cut.back());
  const auto room = sp::stage_token_room(lim, context);
  const auto fb = sp::forwards_before(win.shape);
  int ops = 0;
  for (std::size_t r = 0; r < trial.layouts.size(); ++r)
    ops += sp::local_search((*win.items)[r], win.shape, win.token_cap, room, fb,
                            kFinalLocalSearchFactor * kLocalOpsPerPack * win.shape.mf,
                            trial.layouts[r]);
  if (ops == 0) return;
  sp::assemble_plan(ctx, trial);
  Expected<double> t = simulated_time(trial.plan, in, lim, cancel);
  ++sel.simulated;
  if (t && *t < sel.time) {
    sel.time = *t;
    sel.candidate = sel.best_asymmetric;
    sel.sliced_label.clear();
    trial.local_ops += ops;
    win = std::move(trial);
  }
}

std::string merged_list(const Batch& batch, const sp::Phase1& p1) {
  std::string merged;
  for (const sp::MergedSeq& m : p1.merged)
    merged += (merged.empty() ? "" : ",") + batch.sequences[static_cast<std::size_t>(m.seq)].id +
              "x" + std::to_string(m.shards) + "@r" + std::to_string(m.first);
  return merged;
}

// The largest DP-Merge group: a power of two up to min(d, 8).
int max_merge_shards(const StrategyParams& prm, int d) {
  int max_shards = 1;
  while (prm.dp_merge && max_shards * 2 <= std::min(d, 8)) max_shards *= 2;
  return max_shards;
}

// One cell of the automatic choice: steps 2 to 5 with the S and pack count of `*ctx.input`, what
// `--slice S --packs M` returns (less what cannot beat `sel.bound`).
struct Cell {
  CandidatePool pool;
  Selection sel;
  int fewest_slices = 0;  // a pack count above it is this cell's count again
  double seconds_build = 0.0, seconds_select = 0.0, seconds_local = 0.0;
};

Status solve_cell(const sp::BuildContext& ctx, const SlicedAssignment& assignment,
                  SliceItemsCache& cuts, const CancelToken& cancel, Cell& cell,
                  std::optional<Error>& nearest) {
  const SolveInput& in = *ctx.input;
  const auto t0 = std::chrono::steady_clock::now();
  Expected<CandidatePool> built =
      build_candidates(ctx, {in.params.slice_size}, cuts, cancel, ProgressSink::none());
  if (!built) return built.error();
  cell.pool = std::move(*built);
  if (!cell.pool.families.empty()) cell.fewest_slices = cell.pool.families.front().fewest_slices;
  cell.seconds_build = seconds_since(t0);
  Error error = Error::infeasible("slimpack: no candidate plan fits (" + cell.pool.last_why + ")");
  if (Status s = simulate_candidates(cell.pool.cands, ctx, cancel, cell.sel, error); !s) return s;
  if (Status s = simulate_sliced_plan(in, *ctx.limits, *ctx.lines, assignment, cancel, cell.sel);
      !s)
    return s;
  cell.seconds_select = seconds_since(t0) - cell.seconds_build;
  if (!cell.sel.found()) {
    if (!std::isfinite(cell.sel.bound) && (!nearest || nearer_to_fitting(error, *nearest)))
      nearest = error;
    return Status::success();
  }
  polish_best_asymmetric(cell.pool, ctx, in, *ctx.limits, cancel, ProgressSink::none(), cell.sel);
  cell.seconds_local = seconds_since(t0) - cell.seconds_build - cell.seconds_select;
  return Status::success();
}

std::string size_list(const std::vector<Tokens>& sizes) {
  if (sizes.size() == 1) return std::to_string(sizes.front());
  return std::to_string(sizes.front()) + ".." + std::to_string(sizes.back()) + " (" +
         std::to_string(sizes.size()) + " sizes)";
}

}  // namespace

Status precheck_slimpack(const SolveInput& in) {
  const StrategyParams& prm = in.params;
  const int d = std::max(1, in.cost->parallel().dp);
  const Tokens smallest = prm.slice_size > 0 ? prm.slice_size : swept_slice_sizes(0).front();
  return check_sequences_fit(in.batch, limits_of(*in.cost), max_merge_shards(prm, d), smallest);
}

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
  const int max_shards = max_merge_shards(prm, d);
  if (Status s = precheck_slimpack(in); !s) return s.error();

  // The cells: a slice size the user chose is honoured (the GUI's slider and `sweep --slice` tune
  // it); S = 0 (auto) tries every size the sweep shows. Likewise the packs.
  Tokens longest = 0, total = 0;
  for (const Sequence& q : in.batch.sequences)
    longest = std::max(longest, q.length), total += q.length;
  const std::vector<Tokens> slices =
      prm.slice_size > 0 ? std::vector<Tokens>{prm.slice_size} : swept_slice_sizes(longest);
  std::vector<int> packs{prm.packs};
  const bool sweep_packs = prm.packs == 0 && total <= kPackSweepTokens * d;
  if (sweep_packs)
    for (int m = 1; m <= kPackSweep; ++m) packs.push_back(m);

  // Step 1: phase 1, shared by every cell.
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
  const SlicedAssignment assignment = sliced_assignment(in, lines);  // independent of S and M

  // Steps 2 to 5 per cell; the fastest cell wins (the first on ties: the smallest S, auto packs).
  SolveInput cell_in = in;
  sp::EstimateScratch scratch;
  sp::BuildContext ctx;
  ctx.input = &cell_in;
  ctx.phase1 = &p1;
  ctx.limits = &lim;
  ctx.lines = &lines;
  ctx.scratch = &scratch;
  SliceItemsCache cuts;  // per S, shared by its pack cells
  std::optional<Cell> best;
  StrategyParams best_params = prm;
  std::optional<Error> nearest;
  int simulated = 0, cells = 0;
  std::size_t built = 0;
  double t_build = 0.0, t_select = 0.0, t_local = 0.0;
  for (std::size_t k = 0; k < slices.size(); ++k) {
    progress.report("slimpack: S = " + std::to_string(slices[k]),
                    static_cast<double>(k) / static_cast<double>(slices.size()));
    for (int m : packs) {
      if (cancel.cancelled()) return Error::cancelled();
      cell_in.params.slice_size = slices[k];
      cell_in.params.packs = m;
      Cell cell;
      if (best) cell.sel.bound = best->sel.time;
      if (Status s = solve_cell(ctx, assignment, cuts, cancel, cell, nearest); !s) return s.error();
      ++cells;
      simulated += cell.sel.simulated;
      built += cell.pool.cands.size();
      t_build += cell.seconds_build, t_select += cell.seconds_select, t_local += cell.seconds_local;
      if (cell.sel.found() && (!best || cell.sel.time < best->sel.time)) {
        best = std::move(cell);
        best_params = cell_in.params;
      }
      // A count above the fewest slices of a replica is that count again (M = min(M, slices)).
      if (m > 0 && m >= cell.fewest_slices) break;
    }
  }
  if (!best) return nearest ? *nearest : Error::infeasible("slimpack: no candidate plan fits");

  cell_in.params = best_params;  // a candidate's plan is built with its cell's parameters
  Selection& sel = best->sel;
  SolveResult out;
  int local_ops = 0;
  std::string label = sel.sliced_label;
  if (sel.candidate) {
    Candidate& win = best->pool.cands[*sel.candidate];
    if (!win.planned) sp::materialize(ctx, win);  // a twin of the plan simulated (equal times)
    local_ops = win.local_ops;
    out.plan = std::move(win.plan);  // the pool is not read again
    label = win.label;
  } else {
    out.plan = std::move(sel.sliced_plan);
  }
  out.plan.strategy = "slimpack";
  out.stats.phase_seconds = {{"phase 1", t_phase1},
                             {"phase 2", t_build},
                             {"selection", t_select},
                             {"local search", t_local}};
  out.stats.candidates = simulated;
  out.stats.chosen_candidate = label;  // the explorer's auto-S note reads this, never the notes
  if (prm.slice_size == 0 || prm.packs == 0) {
    out.stats.compared = prm.slice_size == 0 ? "S = " + size_list(slices) : std::string();
    if (prm.packs == 0)
      out.stats.compared += std::string(out.stats.compared.empty() ? "" : ", ") +
                            (sweep_packs ? "packs balanced and 1.." + std::to_string(kPackSweep)
                                         : std::string("packs balanced"));
  }
  fill_objective(out.plan, lines, out.stats);
  char buf[96];
  std::snprintf(buf, sizeof buf, " simulated=%.6gs", sel.time);
  out.stats.notes = "chosen: " + label + buf + "; compared: " +
                    (out.stats.compared.empty() ? std::string("-") : out.stats.compared) + " in " +
                    std::to_string(cells) + " cells; candidates built=" + std::to_string(built) +
                    "; outliers=[" + seq_ids(in.batch, p1.outliers, 8) + "]; merged=[" +
                    merged_list(in.batch, p1) + "]; phase-1 swaps=" + std::to_string(p1.swaps) +
                    "; local-search ops=" + std::to_string(local_ops);
  if (prm.exact) {
    Status s = run_exact_phase2(cell_in, out, cancel, progress);
    if (!s) return s.error();
  }
  return out;
}

}  // namespace slimpack::solver_detail
