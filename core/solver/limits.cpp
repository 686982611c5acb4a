#include "solver/limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/format.h"

namespace slimpack::solver_detail {

ReplicaLoad heaviest_replica(const std::vector<std::vector<SeqIndex>>& replicas,
                             const std::vector<Sequence>& seqs, const std::vector<double>& work) {
  ReplicaLoad most;
  for (const auto& list : replicas) {
    ReplicaLoad load;
    for (SeqIndex i : list) {
      load.tokens += seqs[static_cast<std::size_t>(i)].length;
      load.work += work[static_cast<std::size_t>(i)];
    }
    most.tokens = std::max(most.tokens, load.tokens);
    most.work = std::max(most.work, load.work);
  }
  return most;
}

Limits limits_of(const CostModel& cost) {
  Limits lim;
  lim.token_cap = cost.options().token_cap;
  lim.memory = cost.memory_model(cost.max_recompute_layers());
  lim.cost = &cost;
  const int pp = std::max(1, cost.parallel().pp);
  if (lim.memory.capacity_bytes > 0.0 && !lim.memory.static_bytes.empty()) {
    // Stage 0 keeps the most packs in flight under 1F1B (pp of them), so it sets the capacity.
    const double free_bytes = lim.memory.capacity_bytes - lim.memory.static_bytes[0];
    const double per_pack = pp * lim.memory.activation_per_token[0];
    lim.memory_pack_tokens = std::max<Tokens>(1, static_cast<Tokens>(free_bytes / per_pack));
  }
  return lim;
}

int auto_pack_count(Tokens replica_tokens, Tokens capacity, int pp) {
  int m = std::max(1, pp);
  if (capacity > 0 && replica_tokens > 0) {
    const Tokens need = (replica_tokens + capacity - 1) / capacity;
    m = std::max<Tokens>(m, std::min<Tokens>(need, kMaxAutoPacks));
  }
  return m;
}

int balanced_pack_count(double work, double c0, int pp, int lower, int upper) {
  int m = lower;
  if (c0 > 0.0 && pp > 1 && work > 0.0)
    m = std::max(lower, static_cast<int>(std::lround(std::sqrt((pp - 1) * work / c0))));
  return std::max(1, std::min(m, std::max(1, upper)));
}

Status check_sequences_fit(const Batch& batch, const Limits& lim, int max_shards,
                           Tokens slice_size) {
  const MemoryModel& mm = lim.memory;
  const double shards = std::max(1, max_shards);
  for (std::size_t i = 0; i < batch.sequences.size(); ++i) {
    const Sequence& seq = batch.sequences[i];
    const Tokens piece = slice_size > 0 ? std::min(seq.length, slice_size) : seq.length;
    const Tokens piece_per_shard = static_cast<Tokens>(std::ceil(piece / shards));
    if (lim.token_cap > 0 && piece_per_shard > lim.token_cap) {
      InfeasibleDetail detail;
      detail.limit = Limit::TokenCap;
      detail.needed = static_cast<double>(piece_per_shard);
      detail.cap = static_cast<double>(lim.token_cap);
      detail.sequence = seq.id;
      return Error::infeasible("sequence '" + seq.id + "' (" + std::to_string(seq.length) +
                                   " tokens) needs a pack of " + std::to_string(piece_per_shard) +
                                   " tokens, over the token cap of " +
                                   std::to_string(lim.token_cap),
                               detail);
    }
    if (mm.capacity_bytes <= 0.0) continue;
    for (std::size_t s = 0; s < mm.static_bytes.size(); ++s) {
      // All of a sequence's activations are held between its last forward and its first backward.
      const double need =
          mm.static_bytes[s] + mm.activation_per_token[s] * std::ceil(seq.length / shards);
      if (need > mm.capacity_bytes) {
        InfeasibleDetail detail;
        detail.limit = Limit::StageMemory;
        detail.stage = static_cast<int>(s);
        detail.needed = need;
        detail.cap = mm.capacity_bytes;
        detail.sequence = seq.id;
        return Error::infeasible(
            "sequence '" + seq.id + "' (" + std::to_string(seq.length) +
                " tokens) does not fit stage " + std::to_string(s) + " memory even split over " +
                std::to_string(static_cast<int>(shards)) + " replica(s): needs " +
                format_bytes(need) + ", cap " + format_bytes(mm.capacity_bytes) + ", shortfall " +
                format_bytes(need - mm.capacity_bytes),
            detail);
      }
    }
  }
  return Status::success();
}

}  // namespace slimpack::solver_detail
