// Peak memory per stage (used by rule L4 and by the solvers). The simulator's time-resolved memory
// timeline follows the same accounting, so the peak it reports equals this one:
//   * a forward op allocates its pack's tokens * activation_per_token[s] (a DP-merged segment
//   counts
//     this replica's shard of tokens); the peak is sampled after the allocation;
//   * a backward op first sets, for each sequence with more than one backward segment on this
//     replica, the dK/dV accumulator to dkdv_per_context_token[s] * begin (the prefix [0, begin)
//     still to be processed; 0 once the segment starting at token 0 runs, i.e. the sequence is
//     done), then the peak is sampled (the op still needs its activations), then its tokens'
//     activations are freed;
//   * with the interleaved schedule each (pack, chunk) op holds 1/v of the stage's layers, so it
//     allocates and frees 1/v of the bytes, and accumulators are kept per (sequence, chunk);
//   * peak = static_bytes[s] + max over the walk of (activations + accumulators).
#include <algorithm>
#include <unordered_map>

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
  for (const auto& p : rp.forward) fwd_tokens.push_back(static_cast<double>(p.tokens()));
  for (const auto& p : rp.backward) bwd_tokens.push_back(static_cast<double>(p.tokens()));
  // Sequences whose backward is split: only they keep a dK/dV accumulator between ops.
  std::unordered_map<SeqIndex, int> backward_segments;
  for (const auto& p : rp.backward)
    for (const auto& seg : p.segments) ++backward_segments[seg.seq];
  // Lowest begin of each split sequence inside each backward pack.
  std::vector<std::vector<std::pair<SeqIndex, Tokens>>> pack_prefix(rp.backward.size());
  for (std::size_t b = 0; b < rp.backward.size(); ++b) {
    auto& list = pack_prefix[b];
    for (const auto& seg : rp.backward[b].segments) {
      if (backward_segments[seg.seq] < 2) continue;
      auto it =
          std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == seg.seq; });
      if (it == list.end())
        list.emplace_back(seg.seq, seg.begin);
      else
        it->second = std::min(it->second, seg.begin);
    }
  }

  for (int s = 0; s < stages; ++s) {
    const auto si = static_cast<std::size_t>(s);
    const std::vector<OrderedOp> ops =
        stage_order(plan.schedule, plan.stages, s, mf, mb, plan.warmup_extra, plan.vchunks);
    int chunks = 1;
    for (const auto& op : ops) chunks = std::max(chunks, op.chunk + 1);
    const double act = at_or_zero(memory.activation_per_token, si) / chunks;
    const double dkdv = at_or_zero(memory.dkdv_per_context_token, si) / chunks;

    double activations = 0.0;
    double accumulators = 0.0;
    std::unordered_map<std::int64_t, double> accumulator;  // key: seq * chunks + chunk
    double peak = 0.0;
    for (const auto& op : ops) {
      const auto pi = static_cast<std::size_t>(op.pack);
      if (op.pass == Pass::Forward) {
        activations += fwd_tokens[pi] * act;
        peak = std::max(peak, activations + accumulators);
        continue;
      }
      for (const auto& [seq, begin] : pack_prefix[pi]) {
        double& held = accumulator[static_cast<std::int64_t>(seq) * chunks + op.chunk];
        const double now = dkdv * static_cast<double>(begin);
        accumulators += now - held;
        held = now;
      }
      peak = std::max(peak, activations + accumulators);
      activations -= bwd_tokens[pi] * act;
    }
    peaks[si] += peak;
  }
  return peaks;
}

}  // namespace slimpack
