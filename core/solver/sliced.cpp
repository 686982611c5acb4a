// `sliced`: Seq1F1B/ChunkFlow-like symmetric slicing. Sequences are cut into slices of S tokens
// (params.slice_size, auto = kDefaultSliceSize); each replica's slices, in batch order, are cut
// into M contiguous packs balanced on forward time (so a sequence's slices sit in order, L1).
// Backward packs are the same packs: each run of packs chained by a sequence spanning them is
// replayed in reverse (L2), and w is the smallest extra warm-up that makes that legal (a run [a, c]
// needs w >= c - a, L3), at most Mf - 1.
//
// M is params.packs when given, else balanced_pack_count() (M* = sqrt((p - 1) W / c0), at least
// max(pp, ceil(replica tokens / capacity)) with capacity the biggest pack that fits stage 0's
// activation memory with pp packs in flight (and the token cap), at least S). With d > 1, sequences
// go to replicas by LPT on estimated forward + backward time.
#include <algorithm>
#include <chrono>

#include "slicer/slicer.h"
#include "solver/assignment.h"
#include "solver/pack_builder.h"
#include "solver/plan_gate.h"
#include "solver/sliced_build.h"
#include "solver/sliced_layout.h"
#include "solver/strategies.h"
#include "solver/symmetric_backward.h"

namespace slimpack::solver_detail {

SlicedAssignment sliced_assignment(const SolveInput& in, const TimeLines& lines) {
  const auto& seqs = in.batch.sequences;
  std::vector<double> work(seqs.size());
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    const double n = static_cast<double>(seqs[i].length);
    const double a = pairs_of(0, seqs[i].length);
    work[i] = lines.fwd.work(n, a) + lines.bwd.work(n, a);
  }
  SlicedAssignment out;
  out.replicas = assign_lpt(work, std::max(1, in.cost->parallel().dp));
  out.heaviest = heaviest_replica(out.replicas, seqs, work);
  return out;
}

Expected<SlicedBuild> build_sliced(const SolveInput& in, const Limits& lim, const TimeLines& lines,
                                   const SlicedAssignment& assignment, Tokens slice,
                                   const CancelToken& cancel, ProgressSink& progress) {
  const auto& seqs = in.batch.sequences;
  SlicedBuild out;
  out.plan = plan_skeleton(in, "sliced", slice);
  Plan& plan = out.plan;
  Tokens capacity = lim.memory_pack_tokens > 0 ? std::max(lim.memory_pack_tokens, slice) : 0;
  if (lim.token_cap > 0)
    capacity = capacity > 0 ? std::min(capacity, lim.token_cap) : lim.token_cap;
  out.capacity = capacity;
  const auto [most, most_work] = assignment.heaviest;
  const int m =
      in.params.packs > 0
          ? in.params.packs
          : balanced_pack_count(most_work, lines.fwd.c0 + lines.bwd.c0, plan.stages,
                                auto_pack_count(most, capacity, plan.stages), kMaxAutoPacks);
  const auto& replicas = assignment.replicas;
  for (std::size_t r = 0; r < replicas.size(); ++r) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("sliced: packing", static_cast<double>(r) / static_cast<double>(plan.dp()));
    plan.replicas[r].forward = contiguous_packs(seqs, replicas[r], slice, m, capacity, lines.fwd);
    if (!replicas[r].empty() && plan.replicas[r].forward.size() < static_cast<std::size_t>(m) &&
        out.notes.empty()) {
      out.notes = "M=" + std::to_string(m) + " clamped to " +
                  std::to_string(plan.replicas[r].forward.size()) + " on some replica; ";
    }
  }
  plan.warmup_extra = symmetric_backward_order(plan, false, out.order);
  return out;
}

void add_sliced_backward(SlicedBuild& built) {
  apply_symmetric_order(built.plan, built.order);
}

std::string sliced_notes(const SlicedBuild& built, Tokens slice) {
  return built.notes + "S=" + std::to_string(slice) +
         " capacity=" + std::to_string(built.capacity) + " " + describe_counts(built.plan);
}

Status precheck_sliced(const SolveInput& in) {
  const Tokens slice = in.params.slice_size > 0 ? in.params.slice_size : kDefaultSliceSize;
  return check_sequences_fit(in.batch, limits_of(*in.cost), 1, slice);
}

Expected<SolveResult> solve_sliced(const SolveInput& in, const CancelToken& cancel,
                                   ProgressSink& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const Tokens slice = in.params.slice_size > 0 ? in.params.slice_size : kDefaultSliceSize;
  const Limits lim = limits_of(*in.cost);
  if (Status s = precheck_sliced(in); !s) return s.error();
  const TimeLines lines = time_lines(*in.cost);
  progress.report("sliced: assigning replicas", 0.0);
  const SlicedAssignment assignment = sliced_assignment(in, lines);
  const double t_assign = seconds_since(t0);

  Expected<SlicedBuild> built = build_sliced(in, lim, lines, assignment, slice, cancel, progress);
  if (!built) return built.error();
  add_sliced_backward(*built);
  const double t_pack = seconds_since(t0) - t_assign;
  if (cancel.cancelled()) return Error::cancelled();
  progress.report("sliced: legality", 1.0);
  if (Status s = gate_legality(built->plan, lim); !s) return s.error();
  const double t_check = seconds_since(t0) - t_assign - t_pack;

  SolveResult out;
  out.stats.notes = sliced_notes(*built, slice);
  out.plan = std::move(built->plan);
  out.stats.phase_seconds = {{"assign", t_assign}, {"pack", t_pack}, {"legality", t_check}};
  fill_objective(out.plan, lines, out.stats);
  return out;
}

}  // namespace slimpack::solver_detail
