#pragma once
// A pipeline's timeline of units, measured or simulated, in one form for the bubble analysis
// (core/sim/pipeline_bubbles.h): per unit its times, the unit on another stage whose message it
// receives (core/sim/unit_graph.h) and when that message was complete at its stage; per stage the
// busy intervals. Times in microseconds on one clock.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/sim_result.h"
#include "sim/unit_graph.h"

namespace slimpack {

struct TimelineUnit {
  int replica = 0;
  UnitId id;
  double start_us = 0.0;       // first start of its events
  double end_us = 0.0;         // last end
  std::int32_t producer = -1;  // the unit whose message it receives (index in units), -1: none
  std::optional<double> received_us;  // when that message was complete here, when known
};

// Time a stage computed: one interval per event (a unit may be several), owned by its unit.
struct BusyInterval {
  int replica = 0;
  int stage = 0;
  double start_us = 0.0;
  double end_us = 0.0;
  std::int32_t unit = 0;  // index in units
};

struct PipelineTimeline {
  int replicas = 1;
  int stages = 1;
  double origin_us = 0.0;  // the window: [origin_us, end_us); makespan = end_us - origin_us
  double end_us = 0.0;
  std::vector<TimelineUnit> units;
  std::vector<BusyInterval> busy;
};

// The simulated plan's timeline: its F/B ops (times scaled by `us_per_unit`), each with its
// producer from `graphs` (one per replica) and the end of the P2P send that carries the message
// as its receive; the window is [0, makespan).
PipelineTimeline simulated_timeline(const SimResult& sim, const std::vector<UnitGraph>& graphs,
                                    double us_per_unit);

// "F3" (1-based pack) with ".c1" for chunk 1 of interleaved plans, as the simulator names ops.
std::string unit_label(const UnitId& id);

}  // namespace slimpack
