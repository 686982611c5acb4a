#pragma once
// GPU time of a CPU range, found by following Kineto's launch flows (category "ac2g", or the older
// "async_cpu_to_gpu"; trace_launches.h): each flow starts ("s")
// at a kernel launch on a CPU thread and ends ("f") at the kernel on its GPU stream. The kernels
// launched inside a unit's CPU range (a record_function "F3") are the unit's GPU work; their span
// (first kernel start to last kernel end) is the unit's GPU time.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/trace_import.h"

namespace slimpack {

struct GpuSpan {
  double start_us = 0.0;
  double end_us = 0.0;
  int kernels = 0;  // distinct kernels reached
};

class FlowIndex {
 public:
  // Indexes the trace's launch flow points (the trace must outlive the index).
  explicit FlowIndex(const ImportedTrace& trace);

  // The kernels whose launch flow starts on `lane` within [t0_us, t1_us]; empty when none.
  std::optional<GpuSpan> gpu_span(std::int32_t lane, double t0_us, double t1_us) const;
  bool empty() const { return ends_.empty(); }

 private:
  const ImportedTrace& trace_;
  // Per CPU lane, the flow starts sorted by time: (ts, flow id).
  std::unordered_map<std::int32_t, std::vector<std::pair<double, std::int32_t>>> starts_;
  // Flow id -> where it ends: (GPU lane, ts).
  std::unordered_map<std::int32_t, std::pair<std::int32_t, double>> ends_;
};

}  // namespace slimpack
