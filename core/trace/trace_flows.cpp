#include "trace/trace_flows.h"

#include <algorithm>
#include <limits>
#include <set>

#include "trace/trace_launches.h"

namespace slimpack {
namespace {

// How many events before the flow's end time are tried for the kernel holding it (a stream's
// kernels do not nest; a few annotations may enclose them).
constexpr int kMaxLookBack = 16;

}  // namespace

FlowIndex::FlowIndex(const ImportedTrace& trace) : trace_(trace) {
  std::vector<char> launch_flow(trace.names.size(), 0);
  for (std::size_t i = 0; i < trace.names.size(); ++i)
    launch_flow[i] = is_launch_flow_category(trace.names[i]);
  for (const TraceFlowPoint& f : trace.flows) {
    if (!launch_flow[static_cast<std::size_t>(f.cat)] || f.lane < 0) continue;
    if (f.phase == 's')
      starts_[f.lane].emplace_back(f.ts_us, f.id);
    else if (f.phase == 'f')
      ends_.try_emplace(f.id, f.lane, f.ts_us);
  }
  for (auto& [lane, list] : starts_) std::sort(list.begin(), list.end());
}

std::optional<GpuSpan> FlowIndex::gpu_span(std::int32_t lane, double t0_us, double t1_us) const {
  const auto it = starts_.find(lane);
  if (it == starts_.end()) return {};
  const auto& list = it->second;
  auto first = std::lower_bound(list.begin(), list.end(),
                                std::make_pair(t0_us, std::numeric_limits<std::int32_t>::min()));
  GpuSpan span;
  std::set<std::pair<std::int32_t, std::int32_t>> seen;  // (lane, event) of kernels counted
  for (auto s = first; s != list.end() && s->first <= t1_us; ++s) {
    const auto end = ends_.find(s->second);
    if (end == ends_.end()) continue;
    const auto [gpu_lane, ts] = end->second;
    const auto& events = trace_.lanes[static_cast<std::size_t>(gpu_lane)].events;
    // The last event starting at or before the flow's end that still runs at that time.
    auto k = std::upper_bound(events.begin(), events.end(), ts,
                              [](double t, const TraceEvent& e) { return t < e.start_us; });
    for (int tries = 0; k != events.begin() && tries < kMaxLookBack; ++tries) {
      --k;
      if (k->start_us + k->dur_us < ts) continue;
      const auto id = std::make_pair(gpu_lane, static_cast<std::int32_t>(k - events.begin()));
      if (!seen.insert(id).second) break;
      const double end_us = k->start_us + k->dur_us;
      span.start_us = span.kernels == 0 ? k->start_us : std::min(span.start_us, k->start_us);
      span.end_us = span.kernels == 0 ? end_us : std::max(span.end_us, end_us);
      ++span.kernels;
      break;
    }
  }
  if (span.kernels == 0) return {};
  return span;
}

}  // namespace slimpack
