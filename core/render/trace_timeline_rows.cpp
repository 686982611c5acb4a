// TraceTimeline's rows: which lanes and depths a snapshot shows, with groups folded, lanes
// filtered by their titles, single lanes and groups pinned to the top (the trace view's track
// list).
#include <algorithm>
#include <cctype>

#include "render/trace_timeline.h"

namespace slimpack {
namespace {

std::string to_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::vector<TraceRowInfo> TraceTimeline::rows(const std::set<int>& collapsed) const {
  TraceRowOptions options;
  options.collapsed = collapsed;
  return rows_for(options);
}

std::vector<TraceRowInfo> TraceTimeline::rows_for(const TraceRowOptions& options) const {
  std::vector<int> order;
  for (const int g : options.pinned)
    if (g >= 0 && g < static_cast<int>(groups_.size()) &&
        std::find(order.begin(), order.end(), g) == order.end())
      order.push_back(g);
  for (int g = 0; g < static_cast<int>(groups_.size()); ++g)
    if (std::find(order.begin(), order.end(), g) == order.end()) order.push_back(g);
  std::vector<TraceRowInfo> out;
  std::vector<std::pair<int, int>> pinned_lanes;
  for (const auto& [source, lane] : options.pinned_lanes) {
    const int g = group_of(source, lane);
    if (g < 0 || std::find(pinned_lanes.begin(), pinned_lanes.end(), std::pair(source, lane)) !=
                     pinned_lanes.end())
      continue;
    pinned_lanes.emplace_back(source, lane);
    for (int d = 0; d <= lane_depth(source, lane); ++d) out.push_back({source, lane, d, g, true});
  }
  const auto is_pinned = [&](int source, int lane) {
    return std::find(pinned_lanes.begin(), pinned_lanes.end(), std::pair(source, lane)) !=
           pinned_lanes.end();
  };
  const std::string needle = to_lower(options.filter);
  for (const int g : order) {
    const TraceGroupInfo& group = groups_[static_cast<std::size_t>(g)];
    std::vector<std::int32_t> shown;
    for (const std::int32_t l : group.lanes)
      if (needle.empty() || to_lower(lane_title(group.source, l)).find(needle) != std::string::npos)
        shown.push_back(l);
    // A folded group stays whole (its row is every lane's top level); an unfolded one leaves out
    // the lanes pinned above.
    if (!options.collapsed.count(g))
      shown.erase(std::remove_if(shown.begin(), shown.end(),
                                 [&](std::int32_t l) { return is_pinned(group.source, l); }),
                  shown.end());
    if (shown.empty()) continue;
    if (options.collapsed.count(g)) {
      out.push_back({group.source, -1, 0, g});
      continue;
    }
    for (const std::int32_t l : shown)
      for (int d = 0; d <= lane_depth(group.source, l); ++d) out.push_back({group.source, l, d, g});
    // The group's counter tracks under its lanes (an unfolded group only).
    for (std::size_t c = 0; c < counters_.size(); ++c)
      if (counters_[c].group == g)
        out.push_back({group.source, -1, 0, g, false, static_cast<std::int32_t>(c)});
  }
  return out;
}

}  // namespace slimpack
