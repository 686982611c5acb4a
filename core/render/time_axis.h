#pragma once
// Time axis ticks for the Gantt: a 1-2-5 step chosen so labels are at least `min_spacing_px`
// apart, labelled in s / ms / us / ns for simulated seconds or as plain numbers for abstract
// explicit-time plans ("units").
#include <string>
#include <vector>

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

// A duration or instant with three significant digits in a fitting unit: "2.35 ms", "17.0 s",
// "4.5 units".
std::string format_time(double t, const std::string& unit);

// Bytes in decimal units, as memory caps and GPU datasheets give them: "77.0 GB", "512 MB".
std::string format_bytes(double bytes);

}  // namespace slimpack
