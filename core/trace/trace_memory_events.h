#pragma once
// The "[memory]" instant events and the counter ("ph": "C") events of a trace as the import
// streams them: memory events kept as compact samples (within a budget), counters reduced to
// count, min, max and last per series at once. trace_memory.h turns the samples into peaks.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/trace_import.h"

namespace slimpack {

// The args of an instant event that a "[memory]" event carries, as read (PyTorch's profiler:
// {"Device Type": 1, "Device Id": 0, "Addr": ..., "Bytes": ..., "Total Allocated": ...,
// "Total Reserved": ...}). A field is "has_" only when it is a number.
struct RawMemoryArgs {
  std::int64_t allocated = 0, reserved = 0, device_type = 0, device_id = 0;
  bool has_allocated = false, has_reserved = false, has_device_type = false, has_device_id = false;
};

// One numeric series of a counter event's args; the view lives as long as the event's.
struct CounterValue {
  std::string_view series;
  double value = 0.0;
};

class MemoryEventCollector {
 public:
  explicit MemoryEventCollector(std::int64_t budget_bytes) : budget_bytes_(budget_bytes) {}

  // A "[memory]" event: kept when it has a time and a numeric Total Allocated, else skipped.
  void add_memory(bool has_ts, double ts_us, const RawMemoryArgs& args);
  // A counter event of process `pid`: reduced per series, and its points kept per (pid, series)
  // within the budget.
  void add_counter(std::string_view pid, std::string_view name, double ts_us,
                   std::span<const CounterValue> values);
  // Moves what was collected into `out`: samples sorted by device then time, counters by name
  // then series, counter tracks by pid, name, series.
  void finish(ImportedTrace& out);

 private:
  std::int32_t device_index(const RawMemoryArgs& args);
  void add_point(std::string_view pid, std::string_view name, std::string_view series, double ts_us,
                 double value);

  std::int64_t budget_bytes_;
  std::vector<TraceMemorySample> samples_;
  struct Device {
    std::string name;
    std::int64_t type = 0, id = 0;  // the order of the devices: by type, then id
  };
  std::vector<Device> devices_;
  std::int64_t skipped_ = 0, dropped_ = 0;
  std::vector<TraceCounterSeries> counters_;
  std::unordered_map<std::string, std::size_t> counter_index_;  // name '\0' series
  std::vector<TraceCounterTrack> tracks_;
  std::unordered_map<std::string, std::size_t> track_index_;  // pid '\0' name '\0' series
  std::int64_t points_ = 0, points_dropped_ = 0;
  std::string key_scratch_;
};

}  // namespace slimpack
