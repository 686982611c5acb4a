// `fixed`: Megatron/NeMo-style packing. Whole sequences go first-fit-decreasing into packs of C
// tokens; backward packs repeat the forward packs in the same order (symmetric, w = 0).
//
// C is params.pack_tokens when given, else the longest sequence rounded up to a multiple of 1024
// (packing to the maximum length, as a data loader configured for the longest sample does). A
// forced pack count (params.packs) raises C to ceil(replica tokens / packs) so that about that many
// packs come out. With d > 1 the sequences are dealt to replicas round-robin in batch order.
#include <algorithm>
#include <chrono>
#include <numeric>

#include "solver/pack_builder.h"
#include "solver/strategies.h"

namespace slimpack::solver_detail {
namespace {

constexpr Tokens kRoundTo = 1024;

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

Expected<SolveResult> solve_fixed(const SolveInput& in, const CancelToken& cancel,
                                  ProgressSink& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const Limits lim = limits_of(*in.cost);
  if (Status s = check_sequences_fit(in.batch, lim, 1, 0); !s) return s.error();
  const auto& seqs = in.batch.sequences;
  SolveResult out;
  out.plan = plan_skeleton(in, "fixed", 0);
  Plan& plan = out.plan;
  const int d = plan.dp();
  progress.report("fixed: assigning replicas", 0.0);
  const auto replicas = assign_round_robin(seqs.size(), d);

  SeqIndex longest = 0;
  for (std::size_t i = 0; i < seqs.size(); ++i)
    if (seqs[i].length > seqs[static_cast<std::size_t>(longest)].length)
      longest = static_cast<SeqIndex>(i);
  const Tokens max_len = seqs[static_cast<std::size_t>(longest)].length;
  Tokens cap = in.params.pack_tokens;
  if (cap > 0 && cap < max_len) {
    return Error::bad_input(
        "params.pack_tokens: " + std::to_string(cap) + " is smaller than sequence '" +
        seqs[static_cast<std::size_t>(longest)].id + "' (" + std::to_string(max_len) + " tokens)");
  }
  if (cap == 0) cap = (max_len + kRoundTo - 1) / kRoundTo * kRoundTo;
  std::string notes;
  if (in.params.packs > 0) {
    Tokens most = 0;
    for (const auto& list : replicas) {
      Tokens t = 0;
      for (SeqIndex i : list) t += seqs[static_cast<std::size_t>(i)].length;
      most = std::max(most, t);
    }
    cap = std::max(cap, (most + in.params.packs - 1) / in.params.packs);
  }
  const double t_assign = seconds_since(t0);

  for (std::size_t r = 0; r < replicas.size(); ++r) {
    if (cancel.cancelled()) return Error::cancelled();
    progress.report("fixed: packing", static_cast<double>(r) / static_cast<double>(d));
    // Longest first, ties in batch order (the list is in batch order): sorting (length, index)
    // pairs directly avoids an indirect stable sort's cache misses on 100k sequences.
    std::vector<std::pair<Tokens, SeqIndex>> keyed(replicas[r].size());
    for (std::size_t k = 0; k < keyed.size(); ++k)
      keyed[k] = {seqs[static_cast<std::size_t>(replicas[r][k])].length, replicas[r][k]};
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<SeqIndex> order(keyed.size());
    for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
    FirstFit ff(std::max<std::size_t>(1, order.size()), cap);
    auto& packs = plan.replicas[r].forward;
    for (SeqIndex i : order) {
      const Tokens n = seqs[static_cast<std::size_t>(i)].length;
      const long bin = ff.find(n);  // always found: every bin starts at C >= the longest
      ff.take(static_cast<std::size_t>(bin), n);
      if (static_cast<std::size_t>(bin) >= packs.size())
        packs.resize(static_cast<std::size_t>(bin) + 1);
      packs[static_cast<std::size_t>(bin)].segments.push_back(Segment{i, 0, n});
    }
    plan.replicas[r].backward = packs;
  }
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
  if (plan.schedule == ScheduleKind::Interleaved) {
    for (const auto& rp : plan.replicas) {
      if (rp.forward.size() % static_cast<std::size_t>(plan.stages) != 0) {
        notes +=
            "interleaved needs a pack count that is a multiple of pp; that replica runs 1F1B; ";
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
