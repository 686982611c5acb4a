#pragma once
// Time axis ticks for the Gantt: a 1-2-5 step chosen so labels are at least `min_spacing_px`
// apart, labelled in s / ms / us / ns for simulated seconds or as plain numbers for abstract
// explicit-time plans ("units").
#include <string>
#include <vector>

#include "common/format.h"
#include "render/time_scale.h"

namespace slimpack {

struct AxisTick {
  double time = 0.0;
  double x = 0.0;
  std::string label;  // e.g. "1.5 ms", "250 us", "12" (units)
};

struct TimeAxis {
  double step = 0.0;       // in model time
  std::string unit_label;  // "s", "ms", "us", "ns" or "units"
  std::vector<AxisTick> ticks;
};

// `unit` is the model's time unit: "s" for seconds, anything else is shown as plain numbers.
TimeAxis compute_time_axis(const TimeScale& scale, const std::string& unit,
                           double min_spacing_px = 90.0);

// A 1-2-5 step at least `min_step` (> 0).
double nice_step(double min_step);

// Durations and byte counts are formatted by core/common/format.h (format_time, format_bytes).

}  // namespace slimpack
