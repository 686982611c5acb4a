#pragma once
// Where a pipeline's bubbles come from: every idle interval of every stage between the window's
// start and its end (the makespan), classified by cause, and the critical path through units and
// messages. One analysis for a measured run and for the simulated plan
// (core/sim/pipeline_timeline.h builds both timelines), so the two read side by side.
//
// A stage is busy while any of its intervals runs (their union); the rest of the window is idle:
//   fill       before the stage's first unit (pipeline fill) and after its last (drain);
//   dependency waiting for a message whose producing unit, on another stage, had not finished:
//              the part of the gap before the producer's end (the producer is named);
//   transfer   the producer had finished but the message was still in flight: from the
//              producer's end until the receive completed (known only when the timeline has it);
//   other      everything else: a gap before a unit that receives nothing, or after its message
//              was there (host work, launch gaps).
// A gap before unit u is split at the producer's end and at the receive's end, so one gap can
// count for several causes. Per stage, busy + the four causes = the makespan.
//
// The critical path walks back from the unit that ends last: at each step to the predecessor
// that finished latest, the unit before it on its stage or the producer of its message (whose
// ready time is the receive's end when known, else the producer's end); ties go to the stage.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/pipeline_timeline.h"

namespace slimpack {

enum class BubbleCause : std::uint8_t { Dependency, Transfer, Fill, Other };
inline constexpr std::size_t kBubbleCauses = 4;
const char* bubble_cause_name(BubbleCause cause);  // "dependency", "transfer", "fill", "other"

// One idle piece of a stage (times from the window's start).
struct IdleInterval {
  BubbleCause cause = BubbleCause::Other;
  double start_us = 0.0;
  double end_us = 0.0;
  std::int32_t unit = -1;      // the unit the stage waited to start; -1 after its last (drain)
  std::int32_t producer = -1;  // dependency / transfer: the unit that sends the message
  double duration_us() const { return end_us - start_us; }
};

struct StageBubbles {
  int replica = 0;
  int stage = 0;
  double busy_us = 0.0;                          // union of the stage's intervals within the window
  double idle_us = 0.0;                          // makespan - busy
  std::array<double, kBubbleCauses> by_cause{};  // indexed by BubbleCause; sums to idle_us
  std::vector<IdleInterval> waits;               // in time order
  double cause_us(BubbleCause c) const { return by_cause[static_cast<std::size_t>(c)]; }
};

// A step of the critical path: a unit's run, or the message from `from` to `unit` (from the
// producer's end to when it was there).
struct PathStep {
  bool message = false;
  std::int32_t unit = 0;
  std::int32_t from = -1;  // message: the producing unit
  double start_us = 0.0;
  double end_us = 0.0;
};

struct PipelineBubbles {
  double origin_us = 0.0;  // the window's start on the timeline's clock
  double makespan_us = 0.0;
  std::vector<StageBubbles> stages;     // by replica, then stage
  std::vector<PathStep> critical_path;  // in time order
  std::vector<TimelineUnit> units;      // the timeline's units (times from the window's start)
  std::int64_t receives_known = 0;      // units with a message whose receive end is known
  std::int64_t messages = 0;            // units with a message (a producer)
};

PipelineBubbles analyse_bubbles(const PipelineTimeline& timeline);

}  // namespace slimpack
