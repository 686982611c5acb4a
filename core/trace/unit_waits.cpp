#include "trace/unit_waits.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace slimpack {
namespace {

// Where the first event nested in `u`'s range starts on its lane, if any starts after it.
std::optional<double> first_nested_start(const ImportedTrace& trace, const MeasuredUnit& u) {
  if (u.lane < 0 || static_cast<std::size_t>(u.lane) >= trace.lanes.size()) return std::nullopt;
  const std::vector<TraceEvent>& events = trace.lanes[static_cast<std::size_t>(u.lane)].events;
  // Events are sorted by start (ties: longer first, so a range precedes what it holds).
  auto it = std::lower_bound(events.begin(), events.end(), u.start_us,
                             [](const TraceEvent& e, double t) { return e.start_us < t; });
  const double end = u.start_us + u.dur_us;
  bool past_self = false;
  for (; it != events.end() && it->start_us < end; ++it) {
    if (!past_self && it->index == u.event) {
      past_self = true;
      continue;
    }
    if (!past_self) continue;  // ranges of the same start that hold this one
    if (it->start_us > u.start_us) return it->start_us;
    return std::nullopt;  // its work starts at once
  }
  return std::nullopt;
}

}  // namespace

MappedTrace split_leading_waits(const std::vector<const ImportedTrace*>& traces,
                                MappedTrace& units) {
  MappedTrace waits;
  waits.rule_set = "waits inside units";
  waits.sources = units.sources;
  // Only the first event of a unit receives (a split backward's I runs before its W).
  std::map<std::tuple<int, int, int, int>, std::size_t> first;
  for (std::size_t i = 0; i < units.units.size(); ++i) {
    const MeasuredUnit& u = units.units[i];
    const auto [it, fresh] =
        first.try_emplace({u.replica, u.stage, static_cast<int>(u.pass), u.pack}, i);
    if (!fresh && u.start_us < units.units[it->second].start_us) it->second = i;
  }
  for (const auto& [key, i] : first) {
    MeasuredUnit& u = units.units[i];
    if (u.source < 0 || static_cast<std::size_t>(u.source) >= traces.size() ||
        traces[static_cast<std::size_t>(u.source)] == nullptr)
      continue;
    const auto nested = first_nested_start(*traces[static_cast<std::size_t>(u.source)], u);
    if (!nested) continue;
    MeasuredUnit wait = u;
    wait.dur_us = *nested - u.start_us;
    waits.units.push_back(wait);
    u.dur_us -= wait.dur_us;
    u.start_us = *nested;
  }
  return waits;
}

}  // namespace slimpack
