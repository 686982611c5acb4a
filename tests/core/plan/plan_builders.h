#pragma once
// Small builders for hand-made plans in the plan and slicer tests.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plan/plan.h"

namespace slimpack::test {

inline Segment seg(SeqIndex seq, Tokens begin, Tokens end) {
  return Segment{seq, begin, end};
}

inline Segment merged(SeqIndex seq, Tokens begin, Tokens end, int shards, int shard) {
  return Segment{seq, begin, end, shards, shard};
}

inline Pack pack(std::vector<Segment> segments, std::optional<double> time = std::nullopt) {
  Pack p;
  p.segments = std::move(segments);
  p.time = time;
  return p;
}

inline Plan make_plan(int stages, std::vector<Sequence> sequences, std::vector<Pack> forward,
                      std::vector<Pack> backward, ScheduleKind kind = ScheduleKind::OneFOneB,
                      int warmup_extra = 0) {
  Plan plan;
  plan.stages = stages;
  plan.schedule = kind;
  plan.warmup_extra = warmup_extra;
  plan.sequences = std::move(sequences);
  plan.replicas.push_back(ReplicaPlan{std::move(forward), std::move(backward)});
  return plan;
}

}  // namespace slimpack::test
