#include "trace/trace_launches.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <unordered_map>

namespace slimpack {
namespace {

// How many earlier events are tried for the one holding a flow point (a CPU runtime call sits
// inside a few enclosing ranges; a stream's operations do not nest).
constexpr int kMaxLookBack = 64;

bool icontains(std::string_view s, std::string_view part) {
  const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return std::search(s.begin(), s.end(), part.begin(), part.end(),
                     [&](char a, char b) { return lower(a) == lower(b); }) != s.end();
}

// The innermost event of `events` (sorted by start, ties longer first) holding `ts`, preferring a
// runtime or driver call; null when none does.
const TraceEvent* holding_event(const ImportedTrace& trace, const std::vector<TraceEvent>& events,
                                double ts) {
  auto it = std::upper_bound(events.begin(), events.end(), ts,
                             [](double t, const TraceEvent& e) { return t < e.start_us; });
  const TraceEvent* innermost = nullptr;
  for (int tries = 0; it != events.begin() && tries < kMaxLookBack; ++tries) {
    --it;
    if (it->start_us + it->dur_us < ts) continue;
    if (is_runtime_category(trace.names[static_cast<std::size_t>(it->cat)])) return &*it;
    if (!innermost) innermost = &*it;
  }
  return innermost;
}

// Per lane, the positions in `ops` of its operations (in start order).
using OpsByLane = std::unordered_map<std::int32_t, std::vector<std::size_t>>;

void link_by_flows(const ImportedTrace& trace, std::vector<GpuOp>& ops, const OpsByLane& by_lane) {
  std::vector<char> launch_flow(trace.names.size(), 0);
  bool any = false;
  for (std::size_t i = 0; i < trace.names.size(); ++i)
    any |= (launch_flow[i] = is_launch_flow_category(trace.names[i])) != 0;
  if (!any) return;
  const auto is_launch = [&](const TraceFlowPoint& f) {
    return launch_flow[static_cast<std::size_t>(f.cat)] && f.lane >= 0;
  };
  std::unordered_map<std::int32_t, const TraceFlowPoint*> start_of;
  for (const TraceFlowPoint& f : trace.flows)
    if (is_launch(f) && f.phase == 's') start_of.try_emplace(f.id, &f);
  for (const TraceFlowPoint& f : trace.flows) {
    if (!is_launch(f) || f.phase != 'f') continue;
    const auto s = start_of.find(f.id);
    const auto lane_ops = by_lane.find(f.lane);
    if (s == start_of.end() || lane_ops == by_lane.end()) continue;
    const auto& list = lane_ops->second;
    auto it = std::upper_bound(list.begin(), list.end(), f.ts_us,
                               [&](double t, std::size_t k) { return t < ops[k].start_us; });
    for (int tries = 0; it != list.begin() && tries < kMaxLookBack; ++tries) {
      --it;
      GpuOp& op = ops[*it];
      if (op.end_us < f.ts_us) continue;
      if (op.launch) break;  // one launch per operation: the first flow that reaches it
      GpuLaunch launch;
      launch.start_us = s->second->ts_us;
      launch.via = LaunchLink::Flow;
      const TraceLane& cpu = trace.lanes[static_cast<std::size_t>(s->second->lane)];
      if (const TraceEvent* call = holding_event(trace, cpu.events, launch.start_us))
        launch.cpu_dur_us = call->dur_us;
      op.launch = launch;
      break;
    }
  }
}

// The correlation id of an event, by its position in the event array.
std::optional<std::int64_t> correlation_of(const ImportedTrace& trace, const TraceEvent& e) {
  const auto& list = trace.correlations;
  const auto it = std::lower_bound(
      list.begin(), list.end(), e.index,
      [](const TraceCorrelation& c, std::int32_t index) { return c.index < index; });
  if (it == list.end() || it->index != e.index || e.index < 0) return {};
  return it->id;
}

void link_by_correlation(const ImportedTrace& trace, std::vector<GpuOp>& ops) {
  if (trace.correlations.empty()) return;
  if (std::all_of(ops.begin(), ops.end(), [](const GpuOp& op) { return op.launch.has_value(); }))
    return;
  // The runtime calls by correlation id (the first one of an id, in lane order).
  std::vector<char> runtime(trace.names.size(), 0);
  for (std::size_t i = 0; i < trace.names.size(); ++i)
    runtime[i] = is_runtime_category(trace.names[i]);
  std::unordered_map<std::int64_t, const TraceEvent*> call_of;
  for (const TraceLane& lane : trace.lanes)
    for (const TraceEvent& e : lane.events)
      if (runtime[static_cast<std::size_t>(e.cat)])
        if (const auto id = correlation_of(trace, e)) call_of.try_emplace(*id, &e);
  if (call_of.empty()) return;
  for (GpuOp& op : ops) {
    if (op.launch) continue;
    const TraceEvent& e =
        trace.lanes[static_cast<std::size_t>(op.lane)].events[static_cast<std::size_t>(op.event)];
    const auto id = correlation_of(trace, e);
    if (!id) continue;
    const auto call = call_of.find(*id);
    if (call == call_of.end()) continue;
    GpuLaunch launch;
    launch.start_us = call->second->start_us;
    launch.cpu_dur_us = call->second->dur_us;
    launch.via = LaunchLink::Correlation;
    op.launch = launch;
  }
}

}  // namespace

bool is_launch_flow_category(std::string_view category) {
  return category == "ac2g" || category == "async_cpu_to_gpu";
}

bool is_runtime_category(std::string_view category) {
  return icontains(category, "runtime") || icontains(category, "driver");
}

void link_launches(const ImportedTrace& trace, std::vector<GpuOp>& ops) {
  if (ops.empty()) return;
  OpsByLane by_lane;
  for (std::size_t k = 0; k < ops.size(); ++k) by_lane[ops[k].lane].push_back(k);
  link_by_flows(trace, ops, by_lane);
  link_by_correlation(trace, ops);
}

}  // namespace slimpack
