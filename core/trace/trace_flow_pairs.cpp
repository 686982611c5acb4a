#include "trace/trace_flow_pairs.h"

#include <algorithm>
#include <unordered_map>

namespace slimpack {

std::vector<TraceFlowPair> flow_pairs(const ImportedTrace& trace) {
  std::vector<TraceFlowPair> out;
  std::unordered_map<std::int32_t, const TraceFlowPoint*> open;  // flow id -> its start
  for (const TraceFlowPoint& f : trace.flows) {
    if (f.lane < 0) continue;
    if (f.phase == 's') {
      open[f.id] = &f;
    } else if (f.phase == 'f') {
      const auto it = open.find(f.id);
      if (it == open.end()) continue;
      out.push_back({it->second->lane, f.lane, it->second->ts_us, f.ts_us});
      open.erase(it);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const TraceFlowPair& a, const TraceFlowPair& b) {
    return a.from_us < b.from_us;
  });
  return out;
}

std::int32_t event_holding(const TraceLane& lane, double us) {
  const auto& v = lane.events;
  // Events sorted by start, parents first: the nearest ones starting at or before `us` are the
  // deepest candidates. A bounded look back keeps one flow cheap on a lane of long events.
  auto it = std::upper_bound(v.begin(), v.end(), us,
                             [](double t, const TraceEvent& e) { return t < e.start_us; });
  constexpr int kLookBack = 256;
  for (int n = 0; it != v.begin() && n < kLookBack; ++n) {
    --it;
    if (us <= it->start_us + it->dur_us) return static_cast<std::int32_t>(it - v.begin());
  }
  return -1;
}

}  // namespace slimpack
