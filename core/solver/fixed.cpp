// `fixed`: Megatron-LM / NeMo packed-sequence training, as their data pipelines run it:
//   1. C = params.pack_tokens when given, else the context window (params.context, default the
//      smallest power of two at or above the longest sample: Megatron's --seq-length);
//   2. the whole global batch is packed first-fit-decreasing into packs of C tokens (NeMo's
//      `prepare_packed_ft_dataset` with `packing_algorithm=first_fit_decreasing`);
//   3. the packs are shuffled with the seed (the packed dataset is read in shuffled order) and
//      dealt round-robin to the d data-parallel ranks, so every rank runs the same number of
//      micro-batches (one more on the first P mod d ranks when d does not divide P);
//   4. one pack per micro-batch; backward repeats the forward packs (symmetric, w = 0).
// Recomputation and context parallelism come from the cost model, as configured. A forced pack
// count (params.packs) raises C to ceil(tokens / (packs * d)) so that about that many packs per
// rank come out.
#include <algorithm>
#include <chrono>
#include <numeric>

#include "plan/schedule_order.h"
#include "solver/pack_builder.h"
#include "solver/strategies.h"
#include "workload/rng.h"

namespace slimpack::solver_detail {
namespace {

// First-fit over bins of remaining capacity in O(log bins): a max segment tree finds the lowest
// bin whose remaining capacity holds an item.
class FirstFit {
 public:
  FirstFit(std::size_t bins, Tokens capacity) : size_(1) {
    while (size_ < bins) size_ <<= 1;
    tree_.assign(2 * size_, 0);
    for (std::size_t i = 0; i < bins; ++i) tree_[size_ + i] = capacity;
    for (std::size_t i = size_ - 1; i >= 1; --i)
      tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
  }
  // Lowest bin with at least `need` left, or -1.
  long find(Tokens need) const {
    if (tree_[1] < need) return -1;
    std::size_t i = 1;
    while (i < size_) i = tree_[2 * i] >= need ? 2 * i : 2 * i + 1;
    return static_cast<long>(i - size_);
  }
  void take(std::size_t bin, Tokens amount) {
    std::size_t i = size_ + bin;
    tree_[i] -= amount;
    for (i >>= 1; i >= 1; i >>= 1) tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
  }

 private:
  std::size_t size_;
  std::vector<Tokens> tree_;
};

}  // namespace

Status precheck_whole(const SolveInput& in) {
  return check_sequences_fit(in.batch, limits_of(*in.cost), 1, 0);
}

Expected<SolveResult> solve_fixed(const SolveInput& in, const CancelToken& cancel,
                                  ProgressSink& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const Limits lim = limits_of(*in.cost);
  if (Status s = precheck_whole(in); !s) return s.error();
  const auto& seqs = in.batch.sequences;
  SolveResult out;
  out.plan = plan_skeleton(in, "fixed", 0);
  Plan& plan = out.plan;
  const int d = plan.dp();

  SeqIndex longest = 0;
  Tokens total = 0;
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    total += seqs[i].length;
    if (seqs[i].length > seqs[static_cast<std::size_t>(longest)].length)
      longest = static_cast<SeqIndex>(i);
  }
  const Tokens max_len = seqs[static_cast<std::size_t>(longest)].length;
  Tokens cap =
      in.params.pack_tokens > 0 ? in.params.pack_tokens : context_window(in.batch, in.params);
  if (cap < max_len) {
    return Error::bad_field(in.params.pack_tokens > 0 ? "params.pack_tokens" : "params.context",
                            std::to_string(cap) + " is smaller than sequence '" +
                                seqs[static_cast<std::size_t>(longest)].id + "' (" +
                                std::to_string(max_len) + " tokens)");
  }
  std::string notes;
  if (in.params.packs > 0) {
    const Tokens per = static_cast<Tokens>(in.params.packs) * d;
    cap = std::max(cap, (total + per - 1) / per);
  }
  const double t_assign = seconds_since(t0);

  // Global first-fit-decreasing: longest first, ties in batch order.
  progress.report("fixed: packing", 0.0);
  std::vector<std::pair<Tokens, SeqIndex>> keyed(seqs.size());
  for (std::size_t k = 0; k < keyed.size(); ++k)
    keyed[k] = {seqs[k].length, static_cast<SeqIndex>(k)};
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  FirstFit ff(std::max<std::size_t>(1, keyed.size()), cap);
  std::vector<Pack> packs;
  for (const auto& [n, i] : keyed) {
    const long bin = ff.find(n);  // always found: every bin starts at C >= the longest
    ff.take(static_cast<std::size_t>(bin), n);
    if (static_cast<std::size_t>(bin) >= packs.size())
      packs.resize(static_cast<std::size_t>(bin) + 1);
    packs[static_cast<std::size_t>(bin)].segments.push_back(Segment{i, 0, n});
  }
  if (cancel.cancelled()) return Error::cancelled();
  // The packed dataset is read in shuffled order (Fisher-Yates with the seed), then dealt.
  workload::Rng rng(in.params.seed);
  for (std::size_t k = packs.size(); k > 1; --k)
    std::swap(packs[k - 1], packs[static_cast<std::size_t>(rng.below(k))]);
  for (std::size_t k = 0; k < packs.size(); ++k)
    plan.replicas[k % static_cast<std::size_t>(d)].forward.push_back(std::move(packs[k]));
  for (auto& rp : plan.replicas) rp.backward = rp.forward;
  const double t_pack = seconds_since(t0) - t_assign;

  if (in.params.packs > 0) {
    for (const auto& rp : plan.replicas) {
      if (static_cast<int>(rp.forward.size()) != in.params.packs) {
        notes += "packs=" + std::to_string(in.params.packs) + " requested, FFD made " +
                 std::to_string(rp.forward.size()) + " on some replica (whole sequences); ";
        break;
      }
    }
  }
  for (const auto& rp : plan.replicas) {
    if (rp.forward.empty()) {
      notes += "fewer packs than replicas: some replica idles; ";
      break;
    }
  }
  if (plan.schedule == ScheduleKind::Interleaved) {
    for (const auto& rp : plan.replicas) {
      const InterleavedFallback why =
          interleaved_fallback(plan.stages, static_cast<int>(rp.forward.size()),
                               static_cast<int>(rp.backward.size()), plan.vchunks);
      if (why != InterleavedFallback::None) {
        notes += std::string(interleaved_fallback_rule(why)) + "; that replica runs 1F1B; ";
        break;
      }
    }
  }
  if (cancel.cancelled()) return Error::cancelled();
  progress.report("fixed: legality", 1.0);
  if (Status s = gate_legality(plan, lim); !s) return s.error();
  const double t_check = seconds_since(t0) - t_assign - t_pack;

  out.stats.phase_seconds = {{"assign", t_assign}, {"pack", t_pack}, {"legality", t_check}};
  fill_objective(plan, time_lines(*in.cost), out.stats);
  out.stats.notes = notes + "C=" + std::to_string(cap) + " " + describe_counts(plan);
  return out;
}

}  // namespace slimpack::solver_detail
