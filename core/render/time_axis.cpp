#include "render/time_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace slimpack {
namespace {

struct DisplayUnit {
  double factor;  // model seconds -> display value
  const char* name;
};

// The largest unit in which `magnitude` (seconds) is at least 1, so labels avoid "0.0005 s".
DisplayUnit seconds_unit(double magnitude) {
  if (magnitude >= 1.0) return {1.0, "s"};
  if (magnitude >= 1e-3) return {1e3, "ms"};
  if (magnitude >= 1e-6) return {1e6, "us"};
  return {1e9, "ns"};
}

// Decimals needed to show multiples of `step` exactly (step is 1, 2 or 5 times a power of ten).
int decimals_for(double step) {
  const int d = -static_cast<int>(std::floor(std::log10(step) + 1e-9));
  return d > 0 ? d : 0;
}

}  // namespace

double nice_step(double min_step) {
  if (!(min_step > 0.0) || !std::isfinite(min_step)) return 1.0;
  const double mag = std::pow(10.0, std::floor(std::log10(min_step)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= min_step * (1.0 - 1e-12)) return m * mag;
  return 10.0 * mag;
}

TimeAxis compute_time_axis(const TimeScale& scale, const std::string& unit, double min_spacing_px) {
  TimeAxis axis;
  axis.step = nice_step(min_spacing_px * scale.time_per_px());
  const bool seconds = unit == "s";
  // The unit follows the magnitude of the visible times (not the step) so that the labels of
  // one view read "1.5 ms, 1.6 ms" rather than "1500 us, 1600 us", consistent with tooltips.
  const double magnitude =
      std::max({std::fabs(scale.range().t0), std::fabs(scale.range().t1), axis.step});
  const DisplayUnit du = seconds ? seconds_unit(magnitude) : DisplayUnit{1.0, "units"};
  axis.unit_label = du.name;
  const int decimals = decimals_for(axis.step * du.factor);
  const auto k0 = static_cast<long long>(std::ceil(scale.range().t0 / axis.step - 1e-9));
  const auto k1 = static_cast<long long>(std::floor(scale.range().t1 / axis.step + 1e-9));
  for (long long k = k0; k <= k1 && axis.ticks.size() < 1000; ++k) {
    AxisTick tick;
    tick.time = static_cast<double>(k) * axis.step;
    tick.x = scale.x_of(tick.time);
    tick.label = format_fixed(tick.time * du.factor, decimals);
    if (seconds) tick.label += std::string(" ") + du.name;
    axis.ticks.push_back(std::move(tick));
  }
  return axis;
}

}  // namespace slimpack
