// Peak memory per stage (used by rule L4 and by the solvers). The simulator's time-resolved memory
// timeline follows the same accounting, so the peak it reports equals this one:
//   * a forward op allocates its pack's tokens * activation_per_token[s] (a DP-merged segment
//   counts
//     this replica's shard of tokens); the peak is sampled after the allocation;
//   * a backward op first sets, for each sequence with more than one backward segment on this
//     replica, the dK/dV accumulator to dkdv_per_context_token[s] * begin (the prefix [0, begin)
//     still to be processed; 0 once the segment starting at token 0 runs, i.e. the sequence is
//     done), then the peak is sampled (the op still needs its activations, plus
//     backward_working_per_token[s] per token of the pack when the stage recomputes layers),
//     then its tokens' activations are freed;
//   * with the interleaved schedule each (pack, chunk) op holds 1/v of the stage's layers, so it
//     allocates and frees 1/v of the bytes, and accumulators are kept per (sequence, chunk);
//   * peak = static_bytes[s] + max over the walk of (activations + accumulators).
#include <algorithm>
#include <cstdint>

#include "plan/legality.h"
#include "plan/schedule_order.h"

namespace slimpack {
namespace {

double at_or_zero(const std::vector<double>& v, std::size_t i) {
  return i < v.size() ? v[i] : 0.0;
}

}  // namespace

std::vector<double> peak_memory_per_stage(const Plan& plan, int replica,
                                          const MemoryModel& memory) {
  const int stages = std::max(plan.stages, 0);
  std::vector<double> peaks(static_cast<std::size_t>(stages), 0.0);
  for (int s = 0; s < stages; ++s)
    peaks[static_cast<std::size_t>(s)] =
        at_or_zero(memory.static_bytes, static_cast<std::size_t>(s));
  if (replica < 0 || replica >= plan.dp()) return peaks;
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
  const int mf = static_cast<int>(rp.forward.size());
  const int mb = static_cast<int>(rp.backward.size());

  std::vector<double> fwd_tokens, bwd_tokens;
  fwd_tokens.reserve(rp.forward.size());
  bwd_tokens.reserve(rp.backward.size());
  for (const auto& p : rp.forward) fwd_tokens.push_back(static_cast<double>(p.tokens()));
  for (const auto& p : rp.backward) bwd_tokens.push_back(static_cast<double>(p.tokens()));
  // Sequences whose backward is split: only they keep a dK/dV accumulator between ops. Flat
  // per-sequence counts (segments name valid sequences: the checker ran check_segments first,
  // other callers pass solver-built plans); out-of-range indices are skipped.
  const auto nseq = static_cast<SeqIndex>(plan.sequences.size());
  auto valid = [&](SeqIndex q) { return q >= 0 && q < nseq; };
  std::vector<std::int32_t> backward_segments(plan.sequences.size(), 0);
  for (const auto& p : rp.backward)
    for (const auto& seg : p.segments)
      if (valid(seg.seq)) ++backward_segments[static_cast<std::size_t>(seg.seq)];
  // Split sequences get a dense slot (their accumulator's index), in order of first appearance.
  std::vector<std::int32_t> slot(plan.sequences.size(), -1);
  std::int32_t split = 0;
  // Lowest begin of each split sequence inside each backward pack, as (slot, begin) in CSR form.
  std::vector<std::int32_t> prefix_begin(rp.backward.size() + 1, 0);
  std::vector<std::pair<std::int32_t, Tokens>> prefix;
  std::vector<std::int32_t> seen_in(plan.sequences.size(), -1);  // pack b -> index into prefix
  for (std::size_t b = 0; b < rp.backward.size(); ++b) {
    for (const auto& seg : rp.backward[b].segments) {
      if (!valid(seg.seq)) continue;
      const auto q = static_cast<std::size_t>(seg.seq);
      if (backward_segments[q] < 2) continue;
      if (slot[q] < 0) slot[q] = split++;
      if (seen_in[q] >= prefix_begin[b]) {
        auto& e = prefix[static_cast<std::size_t>(seen_in[q])];
        e.second = std::min(e.second, seg.begin);
      } else {
        seen_in[q] = static_cast<std::int32_t>(prefix.size());
        prefix.emplace_back(slot[q], seg.begin);
      }
    }
    prefix_begin[b + 1] = static_cast<std::int32_t>(prefix.size());
  }
  std::vector<double> accumulator;

  for (int s = 0; s < stages; ++s) {
    const auto si = static_cast<std::size_t>(s);
    const std::vector<OrderedOp> ops =
        stage_order(plan.schedule, plan.stages, s, mf, mb, plan.warmup_extra, plan.vchunks);
    int chunks = 1;
    for (const auto& op : ops) chunks = std::max(chunks, op.chunk + 1);
    const double act = at_or_zero(memory.activation_per_token, si) / chunks;
    const double dkdv = at_or_zero(memory.dkdv_per_context_token, si) / chunks;
    const double working = at_or_zero(memory.backward_working_per_token, si) / chunks;

    double activations = 0.0;
    double accumulators = 0.0;
    accumulator.assign(static_cast<std::size_t>(split) * static_cast<std::size_t>(chunks), 0.0);
    double peak = 0.0;
    for (const auto& op : ops) {
      const auto pi = static_cast<std::size_t>(op.pack);
      if (op.pass == Pass::Forward) {
        activations += fwd_tokens[pi] * act;
        peak = std::max(peak, activations + accumulators);
        continue;
      }
      for (auto e = prefix_begin[pi]; e < prefix_begin[pi + 1]; ++e) {
        const auto& [k, begin] = prefix[static_cast<std::size_t>(e)];
        double& held = accumulator[static_cast<std::size_t>(k) * chunks + op.chunk];
        const double now = dkdv * static_cast<double>(begin);
        accumulators += now - held;
        held = now;
      }
      peak = std::max(peak, activations + accumulators + bwd_tokens[pi] * working);
      activations -= bwd_tokens[pi] * act;
    }
    peaks[si] += peak;
  }
  return peaks;
}

}  // namespace slimpack
