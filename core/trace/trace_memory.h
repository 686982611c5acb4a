#pragma once
// Memory over time from a PyTorch profiler trace, per device, over the whole trace and per
// profiler step: the caching allocator's "Total Allocated" and "Total Reserved" after each
// "[memory]" event (trace_import.h, TraceMemorySample), and the trace's counters
// ("ph": "C") as count, min, max and last per series. docs/file-formats-traces.md ("Summary")
// states each definition.
//
// Between two events a device's allocated bytes stay what the first left, so a window's level
// starts at the value of the last event before it: a step that frees only still peaks at what
// it started with. The result is O(devices x steps), never the events.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace_gpu.h"
#include "trace/trace_import.h"

namespace slimpack {

// One device over one window [start, end) (the whole trace: every event).
struct MemoryWindow {
  std::int64_t events = 0;  // the device's "[memory]" events in the window
  // Total Allocated in effect when the window opens (the last event before it) and when it
  // closes (the last event before its end); empty without such an event.
  std::optional<std::int64_t> allocated_start;
  std::optional<std::int64_t> allocated_end;
  // The largest of allocated_start and every event's Total Allocated in the window, and when it
  // was first reached (the window's start when allocated_start is the peak); empty with neither.
  std::optional<std::int64_t> peak_allocated;
  double peak_allocated_us = 0.0;
  // The same for Total Reserved, over the events that have one.
  std::optional<std::int64_t> peak_reserved;
  double peak_reserved_us = 0.0;
};

struct DeviceMemory {
  std::string device;               // ImportedTrace::memory_devices: "cpu", "cuda:0", ...
  MemoryWindow total;               // the whole trace
  std::vector<MemoryWindow> steps;  // one per step span given, in that order
};

struct TraceMemory {
  std::vector<DeviceMemory> devices;  // cpu, cuda:0, cuda:1, ...
  std::int64_t events = 0;            // "[memory]" events counted
  std::int64_t skipped = 0;  // ... not counted: no numeric Total Allocated or ts (bad input)
  std::int64_t dropped = 0;  // ... not counted: past the import's memory budget
  std::vector<TraceCounterSeries> counters;  // by name, then series
  // Whether there is anything to report: memory events (counted or not) or counters.
  bool any() const { return events + skipped + dropped > 0 || !counters.empty(); }
};

// `steps`: the windows (profiler_steps(trace), as the GPU summary's).
TraceMemory trace_memory(const ImportedTrace& trace, const std::vector<ProfilerStepSpan>& steps);

}  // namespace slimpack
