#pragma once
// Figures of single events and of events grouped by name, for the explorer's trace view (the
// details of a clicked event, the summary of a selected time range, per-name statistics) in the
// manner of Perfetto's and Nsight Systems' slice tables.
//
// Nesting is read from the order of a lane's events (sorted by start, parents first): an event's
// direct children are the events of its lane that start inside it and inside no earlier child.
// Self time = duration - the time of its direct children inside it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/status.h"
#include "trace/trace_import.h"

namespace slimpack {

// Self time of every event of a lane (µs), indexed like lane.events.
std::vector<double> lane_self_times(const TraceLane& lane);
// Direct children of lane.events[index], in start order.
std::vector<std::int32_t> event_children(const TraceLane& lane, std::int32_t index);
double event_self_us(const TraceLane& lane, std::int32_t index);

// The deepest event of `lane` whose interval holds `ts_us` (start <= ts <= end); -1 when none.
std::int32_t event_at(const TraceLane& lane, double ts_us);

// An event reached from another through a flow (Kineto's "ac2g": a CPU launch and its GPU kernel;
// "fwdbwd": a forward op and its backward op).
struct TraceFlowLink {
  std::int32_t lane = -1;
  std::int32_t index = -1;
  std::string category;  // the flow's category ("ac2g")
  bool outgoing = true;  // the flow starts in the event (a launch) and ends at the link (a kernel)
  double from_us = 0.0;  // the flow's point in the event (file microseconds)
  double to_us = 0.0;    // its point in the linked event
};

// The events joined by flows to lane.events[index] of `trace`: flows that start or end inside the
// event lead to the event holding the flow's other end (at most `limit`, in flow order).
std::vector<TraceFlowLink> flow_links(const ImportedTrace& trace, std::int32_t lane,
                                      std::int32_t index, std::size_t limit = 64);

// Events grouped by name.
struct TraceNameStat {
  std::string name;
  std::int64_t count = 0;
  double total_us = 0.0;  // sum of durations
  double self_us = 0.0;   // sum of self times
  double max_us = 0.0;
  double mean_us() const { return count > 0 ? total_us / static_cast<double>(count) : 0.0; }
};

struct TraceStatsScope {
  // Only events that overlap [t0_us, t1_us] (in the files' microseconds: start < t1 and end > t0,
  // or a zero-length event inside it), counted with their whole duration as Perfetto's area
  // selection does; empty: every event.
  std::optional<double> t0_us;
  std::optional<double> t1_us;
  // Only these lanes (source index into `traces`, lane index); empty: all.
  std::function<bool(int source, int lane)> lanes;
};

// By name over every trace (the ranks of a run: the same name in two ranks is one row), sorted by
// total time, longest first (ties: by name). Cancellable between lanes.
Expected<std::vector<TraceNameStat>> name_stats(const std::vector<const ImportedTrace*>& traces,
                                                const TraceStatsScope& scope = {},
                                                const CancelToken& cancel = CancelToken::none());

}  // namespace slimpack
