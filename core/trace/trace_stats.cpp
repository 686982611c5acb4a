#include "trace/trace_stats.h"

#include <algorithm>
#include <unordered_map>

namespace slimpack {
namespace {

double end_of(const TraceEvent& e) {
  return e.start_us + e.dur_us;
}

// The part of `child` inside `parent`.
double inside(const TraceEvent& child, const TraceEvent& parent) {
  return std::max(0.0, std::min(end_of(child), end_of(parent)) - child.start_us);
}

bool in_scope(const TraceEvent& e, const TraceStatsScope& scope) {
  if (scope.t1_us && e.start_us > *scope.t1_us) return false;
  if (scope.t1_us && e.dur_us > 0.0 && e.start_us >= *scope.t1_us) return false;
  if (scope.t0_us && end_of(e) < *scope.t0_us) return false;
  if (scope.t0_us && e.dur_us > 0.0 && end_of(e) <= *scope.t0_us) return false;
  return true;
}

const std::string& text(const ImportedTrace& trace, std::int32_t index) {
  static const std::string empty;
  return index >= 0 && static_cast<std::size_t>(index) < trace.names.size()
             ? trace.names[static_cast<std::size_t>(index)]
             : empty;
}

}  // namespace

std::vector<double> lane_self_times(const TraceLane& lane) {
  const auto& events = lane.events;
  std::vector<double> self(events.size());
  std::vector<std::size_t> open;  // indices of the events still open, outermost first
  for (std::size_t i = 0; i < events.size(); ++i) {
    const TraceEvent& e = events[i];
    self[i] = e.dur_us;
    while (!open.empty() && end_of(events[open.back()]) <= e.start_us) open.pop_back();
    if (!open.empty()) self[open.back()] -= inside(e, events[open.back()]);
    open.push_back(i);
  }
  for (double& s : self) s = std::max(0.0, s);
  return self;
}

std::vector<std::int32_t> event_children(const TraceLane& lane, std::int32_t index) {
  std::vector<std::int32_t> out;
  const auto& events = lane.events;
  if (index < 0 || static_cast<std::size_t>(index) >= events.size()) return out;
  const TraceEvent& parent = events[static_cast<std::size_t>(index)];
  const double end = end_of(parent);
  double child_end = parent.start_us;  // events starting before this are inside a child
  for (std::size_t j = static_cast<std::size_t>(index) + 1; j < events.size(); ++j) {
    const TraceEvent& e = events[j];
    if (e.start_us >= end) break;
    if (e.start_us < child_end) continue;
    out.push_back(static_cast<std::int32_t>(j));
    child_end = std::max(end_of(e), e.start_us);
    // A zero-length child holds nothing: the next event at the same time is a sibling.
    if (e.dur_us <= 0.0) child_end = e.start_us;
  }
  return out;
}

double event_self_us(const TraceLane& lane, std::int32_t index) {
  if (index < 0 || static_cast<std::size_t>(index) >= lane.events.size()) return 0.0;
  const TraceEvent& parent = lane.events[static_cast<std::size_t>(index)];
  double self = parent.dur_us;
  for (const std::int32_t c : event_children(lane, index))
    self -= inside(lane.events[static_cast<std::size_t>(c)], parent);
  return std::max(0.0, self);
}

std::int32_t event_at(const TraceLane& lane, double ts_us) {
  const auto& events = lane.events;
  auto it = std::upper_bound(events.begin(), events.end(), ts_us,
                             [](double t, const TraceEvent& e) { return t < e.start_us; });
  // Walking back from the last event starting at or before ts, the first one holding ts is the
  // deepest (children follow their parents). Bounded: a long flat lane has no holder far back.
  constexpr int kMaxSteps = 100000;
  for (int steps = 0; it != events.begin() && steps < kMaxSteps; ++steps) {
    --it;
    if (end_of(*it) >= ts_us) return static_cast<std::int32_t>(it - events.begin());
  }
  return -1;
}

std::vector<TraceFlowLink> flow_links(const ImportedTrace& trace, std::int32_t lane,
                                      std::int32_t index, std::size_t limit) {
  std::vector<TraceFlowLink> out;
  if (lane < 0 || static_cast<std::size_t>(lane) >= trace.lanes.size()) return out;
  const auto& events = trace.lanes[static_cast<std::size_t>(lane)].events;
  if (index < 0 || static_cast<std::size_t>(index) >= events.size()) return out;
  const TraceEvent& e = events[static_cast<std::size_t>(index)];
  // The flows with an end in the event, then where their other ends are.
  std::unordered_map<std::int32_t, bool> mine;     // flow id -> starts in the event
  std::unordered_map<std::int32_t, double> at_us;  // flow id -> its point in the event
  std::vector<std::int32_t> order;
  for (const TraceFlowPoint& f : trace.flows)
    if (f.lane == lane && f.ts_us >= e.start_us && f.ts_us <= end_of(e) &&
        mine.emplace(f.id, f.phase == 's').second) {
      order.push_back(f.id);
      at_us[f.id] = f.ts_us;
    }
  if (mine.empty()) return out;
  std::unordered_map<std::int32_t, const TraceFlowPoint*> other;
  for (const TraceFlowPoint& f : trace.flows) {
    const auto it = mine.find(f.id);
    if (it == mine.end() || f.lane < 0) continue;
    // An outgoing flow's other end is its last point; an incoming one's its start.
    if (it->second ? f.phase != 's' : f.phase == 's') other[f.id] = &f;
  }
  for (const std::int32_t id : order) {
    const auto it = other.find(id);
    if (it == other.end()) continue;
    const TraceFlowPoint& p = *it->second;
    const std::int32_t at = event_at(trace.lanes[static_cast<std::size_t>(p.lane)], p.ts_us);
    if (at < 0 || (p.lane == lane && at == index)) continue;
    out.push_back({p.lane, at, text(trace, p.cat), mine[id], at_us[id], p.ts_us});
    if (out.size() >= limit) break;
  }
  return out;
}

Expected<std::vector<TraceNameStat>> name_stats(const std::vector<const ImportedTrace*>& traces,
                                                const TraceStatsScope& scope,
                                                const CancelToken& cancel) {
  std::unordered_map<std::string, std::size_t> row_of;
  std::vector<TraceNameStat> rows;
  for (std::size_t s = 0; s < traces.size(); ++s) {
    const ImportedTrace& trace = *traces[s];
    std::vector<std::int64_t> row_of_name(trace.names.size(), -1);
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
      if (cancel.cancelled()) return Error::cancelled();
      if (scope.lanes && !scope.lanes(static_cast<int>(s), static_cast<int>(l))) continue;
      const TraceLane& lane = trace.lanes[l];
      const std::vector<double> self = lane_self_times(lane);
      for (std::size_t i = 0; i < lane.events.size(); ++i) {
        const TraceEvent& e = lane.events[i];
        if (!in_scope(e, scope)) continue;
        const bool known = e.name >= 0 && static_cast<std::size_t>(e.name) < row_of_name.size();
        std::int64_t r = known ? row_of_name[static_cast<std::size_t>(e.name)] : -1;
        if (r < 0) {
          const auto [it, fresh] = row_of.try_emplace(text(trace, e.name), rows.size());
          if (fresh) rows.push_back({it->first, 0, 0.0, 0.0, 0.0});
          r = static_cast<std::int64_t>(it->second);
          if (known) row_of_name[static_cast<std::size_t>(e.name)] = r;
        }
        TraceNameStat& row = rows[static_cast<std::size_t>(r)];
        ++row.count;
        row.total_us += e.dur_us;
        row.self_us += self[i];
        row.max_us = std::max(row.max_us, e.dur_us);
      }
    }
  }
  std::sort(rows.begin(), rows.end(), [](const TraceNameStat& a, const TraceNameStat& b) {
    return a.total_us != b.total_us ? a.total_us > b.total_us : a.name < b.name;
  });
  return rows;
}

}  // namespace slimpack
