// TraceTimeline's counter tracks and instant events: the series a trace's "C" events and
// "[memory]" events draw under each process's lanes, and the search over instant events.
#include <algorithm>
#include <cctype>
#include <map>

#include "render/trace_timeline.h"
#include "trace/trace_memory.h"

namespace slimpack {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void set_max(TraceCounterView& c) {
  const auto& p = *c.points;
  const auto it = std::max_element(p.begin(), p.end(), [](const auto& a, const auto& b) {
    return a.value < b.value;  // the first point reaching the max
  });
  if (it == p.end()) return;
  c.max = it->value;
  c.max_us = it->ts_us;
}

// Whether a "C" counter counts bytes, from its words: Kineto writes "GPU memory" with series
// "allocated" / "reserved" in bytes, other tools "bytes in flight". A percentage or a rate of
// memory ("memory utilization", "memory bandwidth") is not an amount.
bool counts_bytes(const std::string& name, const std::string& series) {
  const std::string words = lower(name + " " + series);
  const auto has = [&](const char* w) { return words.find(w) != std::string::npos; };
  if (has("%") || has("util") || has("percent") || has("bandwidth") || has("/s")) return false;
  return has("memory") || has("bytes");
}

}  // namespace

void TraceTimeline::build_counters() {
  counters_.clear();
  for (int s = 0; s < static_cast<int>(sources_.size()); ++s) {
    const ImportedTrace& tr = *sources_[static_cast<std::size_t>(s)].trace;
    std::map<std::string, int> group_of_pid;
    for (int g = 0; g < static_cast<int>(groups_.size()); ++g)
      if (groups_[static_cast<std::size_t>(g)].source == s)
        group_of_pid.try_emplace(groups_[static_cast<std::size_t>(g)].pid, g);
    if (group_of_pid.empty()) continue;  // no lanes: nowhere to show a track
    const int first_group =
        std::min_element(group_of_pid.begin(), group_of_pid.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; })
            ->second;
    // A pid with no lanes of its own shows its tracks under the file's first process.
    const auto place = [&](const std::string& pid) {
      const auto it = group_of_pid.find(pid);
      return it == group_of_pid.end() ? first_group : it->second;
    };
    // Series of one name in several processes: a track each, named by its pid.
    std::map<std::pair<std::string, std::string>, int> pids_of_series;
    for (const TraceCounterTrack& t : tr.counter_tracks) ++pids_of_series[{t.name, t.series}];
    for (const TraceCounterTrack& t : tr.counter_tracks) {
      if (t.points.empty()) continue;
      TraceCounterView c;
      c.source = s;
      c.group = place(t.pid);
      c.label = t.series.empty() || t.series == t.name ? t.name : t.name + " · " + t.series;
      if (pids_of_series[{t.name, t.series}] > 1 || !group_of_pid.count(t.pid))
        c.label += " (pid " + t.pid + ")";
      c.memory = counts_bytes(t.name, t.series);
      c.points = std::make_shared<const std::vector<TraceCounterPoint>>(t.points);
      set_max(c);
      counters_.push_back(std::move(c));
    }
    // Memory allocated per device, from the "[memory]" events, under the process whose thread
    // holds them (the CPU process of a PyTorch profiler trace).
    if (tr.memory.empty()) continue;
    int memory_group = first_group;
    const auto memory_name =
        std::find(tr.names.begin(), tr.names.end(), std::string("[memory]")) - tr.names.begin();
    for (const TraceLane& lane : tr.lanes)
      if (std::any_of(lane.instants.begin(), lane.instants.end(),
                      [&](const TraceEvent& e) { return e.name == memory_name; })) {
        memory_group = place(lane.pid);
        break;
      }
    // The peaks are trace_memory's, the figures `slimpack trace summary` prints.
    const TraceMemory memory = trace_memory(tr, {});
    for (std::size_t d = 0; d < tr.memory_devices.size(); ++d) {
      auto points = std::make_shared<std::vector<TraceCounterPoint>>();
      for (const TraceMemorySample& m : tr.memory)
        if (m.device == static_cast<std::int32_t>(d))
          points->push_back({m.ts_us, static_cast<double>(m.allocated)});
      if (points->empty()) continue;
      TraceCounterView c;
      c.source = s;
      c.group = memory_group;
      c.label = "memory allocated · " + tr.memory_devices[d];
      c.memory = true;
      c.points = std::move(points);
      set_max(c);
      for (const DeviceMemory& dm : memory.devices)
        if (dm.device == tr.memory_devices[d] && dm.total.peak_allocated) {
          c.max = static_cast<double>(*dm.total.peak_allocated);
          c.max_us = dm.total.peak_allocated_us;
        }
      counters_.push_back(std::move(c));
    }
  }
  std::stable_sort(counters_.begin(), counters_.end(),
                   [](const TraceCounterView& a, const TraceCounterView& b) {
                     return a.group != b.group ? a.group < b.group : a.label < b.label;
                   });
}

std::vector<TraceEventRef> TraceTimeline::find_instants(const std::string& text) const {
  if (text.empty()) return {};
  const std::string needle = lower(text);
  return instants_where([&](int s, int n) {
    return lower(sources_[static_cast<std::size_t>(s)].trace->names[static_cast<std::size_t>(n)])
               .find(needle) != std::string::npos;
  });
}

std::int64_t TraceTimeline::instant_count() const {
  std::int64_t n = 0;
  for (const TraceSource& src : sources_)
    for (const TraceLane& lane : src.trace->lanes)
      n += static_cast<std::int64_t>(lane.instants.size());
  return n;
}

}  // namespace slimpack
