#include "trace/trace_memory.h"

#include <algorithm>
#include <span>

namespace slimpack {
namespace {

using Samples = std::span<const TraceMemorySample>;

// One device's samples (sorted by time) over [w0, w1), or over all of them when `whole`.
MemoryWindow window(Samples s, double w0, double w1, bool whole) {
  const auto before = [](const TraceMemorySample& x, double t) { return x.ts_us < t; };
  const std::size_t lo =
      whole
          ? 0
          : static_cast<std::size_t>(std::lower_bound(s.begin(), s.end(), w0, before) - s.begin());
  const std::size_t hi =
      whole
          ? s.size()
          : static_cast<std::size_t>(std::lower_bound(s.begin(), s.end(), w1, before) - s.begin());
  MemoryWindow m;
  m.events = static_cast<std::int64_t>(hi - lo);
  // The level carried into the window counts from its first instant.
  if (lo > 0) {
    const TraceMemorySample& prev = s[lo - 1];
    m.allocated_start = prev.allocated;
    m.peak_allocated = prev.allocated;
    m.peak_allocated_us = w0;
    if (prev.reserved >= 0) {
      m.peak_reserved = prev.reserved;
      m.peak_reserved_us = w0;
    }
  }
  for (std::size_t i = lo; i < hi; ++i) {
    const TraceMemorySample& x = s[i];
    if (!m.peak_allocated || x.allocated > *m.peak_allocated) {  // ties: the first reach
      m.peak_allocated = x.allocated;
      m.peak_allocated_us = x.ts_us;
    }
    if (x.reserved >= 0 && (!m.peak_reserved || x.reserved > *m.peak_reserved)) {
      m.peak_reserved = x.reserved;
      m.peak_reserved_us = x.ts_us;
    }
  }
  if (hi > 0) m.allocated_end = s[hi - 1].allocated;
  return m;
}

}  // namespace

TraceMemory trace_memory(const ImportedTrace& trace, const std::vector<ProfilerStepSpan>& steps) {
  TraceMemory out;
  out.events = static_cast<std::int64_t>(trace.memory.size());
  out.skipped = trace.memory_skipped;
  out.dropped = trace.memory_dropped;
  out.counters = trace.counters;
  // The samples are sorted by device, then time: each device is one run of them.
  const Samples all(trace.memory);
  std::size_t first = 0;
  while (first < all.size()) {
    const std::int32_t device = all[first].device;
    std::size_t last = first;
    while (last < all.size() && all[last].device == device) ++last;
    const Samples s = all.subspan(first, last - first);
    DeviceMemory d;
    d.device = trace.memory_devices[static_cast<std::size_t>(device)];
    d.total = window(s, 0.0, 0.0, true);
    for (const ProfilerStepSpan& step : steps)
      d.steps.push_back(window(s, step.start_us, step.end_us, false));
    out.devices.push_back(std::move(d));
    first = last;
  }
  return out;
}

}  // namespace slimpack
