#include "trace/trace_memory_events.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace slimpack {

std::int32_t MemoryEventCollector::device_index(const RawMemoryArgs& a) {
  // PyTorch's c10::DeviceType: 0 CPU (Device Id -1), 1 CUDA.
  std::string name;
  if (!a.has_device_type)
    name = "unknown";
  else if (a.device_type == 0)
    name = "cpu";
  else
    name = (a.device_type == 1 ? std::string("cuda") : "type " + std::to_string(a.device_type)) +
           ":" + (a.has_device_id ? std::to_string(a.device_id) : std::string("?"));
  // A trace names a handful of devices: a linear search.
  const auto it = std::find_if(devices_.begin(), devices_.end(),
                               [&](const Device& d) { return d.name == name; });
  if (it != devices_.end()) return static_cast<std::int32_t>(it - devices_.begin());
  constexpr std::int64_t kLast = std::numeric_limits<std::int64_t>::max();  // "unknown" last
  devices_.push_back({std::move(name), a.has_device_type ? a.device_type : kLast,
                      a.has_device_id ? a.device_id : -1});
  return static_cast<std::int32_t>(devices_.size() - 1);
}

void MemoryEventCollector::add_memory(bool has_ts, double ts_us, const RawMemoryArgs& args) {
  if (!has_ts || !std::isfinite(ts_us) || !args.has_allocated) {
    ++skipped_;
    return;
  }
  const auto size = static_cast<std::int64_t>(sizeof(TraceMemorySample));
  if (static_cast<std::int64_t>(samples_.size() + 1) * size > budget_bytes_) {
    ++dropped_;
    return;
  }
  samples_.push_back(
      {ts_us, args.allocated, args.has_reserved ? args.reserved : -1, device_index(args)});
}

void MemoryEventCollector::add_counter(std::string_view pid, std::string_view name, double ts_us,
                                       std::span<const CounterValue> values) {
  if (!std::isfinite(ts_us)) return;
  for (const CounterValue& v : values) {
    if (!std::isfinite(v.value)) continue;
    add_point(pid, name, v.series, ts_us, v.value);
    key_scratch_.assign(name);
    key_scratch_ += '\0';
    key_scratch_ += v.series;
    auto [it, added] = counter_index_.try_emplace(key_scratch_, counters_.size());
    if (added) {
      counters_.push_back(
          {std::string(name), std::string(v.series), 0, v.value, v.value, v.value, ts_us});
    }
    TraceCounterSeries& c = counters_[it->second];
    ++c.count;
    c.min = std::min(c.min, v.value);
    c.max = std::max(c.max, v.value);
    if (ts_us >= c.last_us) {  // files are not always in time order; ties: the later one
      c.last = v.value;
      c.last_us = ts_us;
    }
  }
}

void MemoryEventCollector::add_point(std::string_view pid, std::string_view name,
                                     std::string_view series, double ts_us, double value) {
  // The samples and the points share the budget.
  const auto used = static_cast<std::int64_t>(samples_.size() * sizeof(TraceMemorySample)) +
                    (points_ + 1) * static_cast<std::int64_t>(sizeof(TraceCounterPoint));
  if (used > budget_bytes_) {
    ++points_dropped_;
    return;
  }
  key_scratch_.assign(pid);
  key_scratch_ += '\0';
  key_scratch_ += name;
  key_scratch_ += '\0';
  key_scratch_ += series;
  auto [it, added] = track_index_.try_emplace(key_scratch_, tracks_.size());
  if (added) tracks_.push_back({std::string(pid), std::string(name), std::string(series), {}});
  tracks_[it->second].points.push_back({ts_us, value});
  ++points_;
}

void MemoryEventCollector::finish(ImportedTrace& out) {
  // Devices in a stable order (cpu, cuda:0, cuda:1, ...), whatever event came first.
  std::vector<std::int32_t> order(devices_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
  std::sort(order.begin(), order.end(), [&](std::int32_t x, std::int32_t y) {
    const Device& a = devices_[static_cast<std::size_t>(x)];
    const Device& b = devices_[static_cast<std::size_t>(y)];
    return a.type != b.type ? a.type < b.type : a.id < b.id;
  });
  std::vector<std::int32_t> position(order.size());
  out.memory_devices.clear();
  for (std::size_t i = 0; i < order.size(); ++i) {
    position[static_cast<std::size_t>(order[i])] = static_cast<std::int32_t>(i);
    out.memory_devices.push_back(std::move(devices_[static_cast<std::size_t>(order[i])].name));
  }
  for (TraceMemorySample& s : samples_) s.device = position[static_cast<std::size_t>(s.device)];
  // By device, then time; ties keep the file's order (an allocation and a free at one time).
  const auto before = [](const TraceMemorySample& a, const TraceMemorySample& b) {
    return a.device != b.device ? a.device < b.device : a.ts_us < b.ts_us;
  };
  if (!std::is_sorted(samples_.begin(), samples_.end(), before))
    std::stable_sort(samples_.begin(), samples_.end(), before);
  samples_.shrink_to_fit();
  out.memory = std::move(samples_);
  out.memory_skipped = skipped_;
  out.memory_dropped = dropped_;
  std::sort(counters_.begin(), counters_.end(),
            [](const TraceCounterSeries& a, const TraceCounterSeries& b) {
              return a.name != b.name ? a.name < b.name : a.series < b.series;
            });
  out.counters = std::move(counters_);
  for (TraceCounterTrack& t : tracks_) {
    const auto by_time = [](const TraceCounterPoint& a, const TraceCounterPoint& b) {
      return a.ts_us < b.ts_us;
    };
    if (!std::is_sorted(t.points.begin(), t.points.end(), by_time))
      std::stable_sort(t.points.begin(), t.points.end(), by_time);
    t.points.shrink_to_fit();
  }
  std::sort(tracks_.begin(), tracks_.end(),
            [](const TraceCounterTrack& a, const TraceCounterTrack& b) {
              return std::tie(a.pid, a.name, a.series) < std::tie(b.pid, b.name, b.series);
            });
  out.counter_tracks = std::move(tracks_);
  out.counter_points_dropped = points_dropped_;
}

}  // namespace slimpack
