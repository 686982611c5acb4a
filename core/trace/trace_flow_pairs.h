#pragma once
// Every flow of a trace as one arrow: each flow's start ("s") joined to its end ("f") by id, both
// on lanes of the trace (Kineto's "ac2g": a CPU launch to its GPU kernel). What the trace view
// draws when it shows all flows, not only the selected event's (trace_stats.h, flow_links).
#include <cstdint>
#include <vector>

#include "trace/trace_import.h"

namespace slimpack {

struct TraceFlowPair {
  std::int32_t from_lane = -1;  // into ImportedTrace::lanes
  std::int32_t to_lane = -1;
  double from_us = 0.0;
  double to_us = 0.0;
};

// The flows in the order of their start time. An "f" joins the latest "s" of its id before it in
// the file; steps ("t") and points on no lane are left out.
std::vector<TraceFlowPair> flow_pairs(const ImportedTrace& trace);

// The index of the event on `lane` that holds time `us`: the deepest (latest-starting) one whose
// span contains it; -1 when none does.
std::int32_t event_holding(const TraceLane& lane, double us);

}  // namespace slimpack
