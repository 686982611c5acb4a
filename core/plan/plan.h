#pragma once
// The plan model (docs/design.md sections 2 and 9): sequences, forward and backward MicroPacks of
// segments, schedule kind and extra warm-up, one pack list pair per data-parallel replica.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/sequence.h"

namespace slimpack {

using SeqIndex = std::int32_t;  // index into Plan::sequences

enum class ScheduleKind { OneFOneB, GPipe, Interleaved };
enum class Pass { Forward, Backward };

const char* schedule_name(ScheduleKind k);  // "1f1b", "gpipe", "interleaved"
bool parse_schedule(const std::string& name, ScheduleKind& out);

// Consecutive tokens [begin, end) of one sequence inside one pack. Its attention context is [0,
// end). A DP-Merged segment is computed by `shards` replicas together (context-parallel style):
// each replica's copy has the same (seq, begin, end) and its own shard index; each shard holds
// (end-begin)/shards of the tokens and pays the K/V all-gather the cost model prices.
struct Segment {
  SeqIndex seq = 0;
  Tokens begin = 0;
  Tokens end = 0;
  std::int32_t shards = 1;
  std::int32_t shard = 0;

  Tokens tokens() const { return end - begin; }
  // Causal query-key pairs of this segment: queries [begin,end) against keys [0, q].
  double attention_pairs() const;
  bool operator==(const Segment&) const = default;
};

// A MicroPack: segments run as one unit (one varlen attention call per layer).
struct Pack {
  std::vector<Segment> segments;
  // Explicit duration on every stage (abstract what-if plans); overrides the cost model.
  std::optional<double> time;
  // Explicit per-stage durations; when non-empty its size equals the stage count and it overrides
  // `time` and the cost model.
  std::vector<double> stage_times;

  Tokens tokens() const;           // sum of segment tokens (divided by shards for merged ones)
  double attention_pairs() const;  // sum of segment pairs (divided by shards)
};

struct ReplicaPlan {
  std::vector<Pack> forward;
  std::vector<Pack> backward;
};

struct Plan {
  int stages = 1;
  ScheduleKind schedule = ScheduleKind::OneFOneB;
  int warmup_extra = 0;  // w of docs/design.md section 4
  int vchunks = 1;       // virtual chunks per stage for the interleaved schedule
  double p2p_latency = 0.0;
  Tokens slice_size = 0;  // informational: the slice size the plan was built with (0 = none)
  std::string strategy;   // informational: the strategy that built it
  // Layers recomputed in backward on each stage (activation recomputation); empty = none. The
  // cost model prices them (one extra forward per recomputed layer) and stores less for them.
  std::vector<int> recompute_layers;
  std::vector<Sequence> sequences;
  std::vector<ReplicaPlan> replicas;  // size = data-parallel degree (at least 1)

  int dp() const { return static_cast<int>(replicas.size()); }
  int recompute_at(int stage) const {
    return stage >= 0 && static_cast<std::size_t>(stage) < recompute_layers.size()
               ? recompute_layers[static_cast<std::size_t>(stage)]
               : 0;
  }
  Tokens total_tokens() const;
  // Index of a sequence by id, or -1.
  SeqIndex find_sequence(const std::string& id) const;
  // True when every pack of every replica carries an explicit time or stage_times.
  bool has_explicit_times() const;
};

}  // namespace slimpack
