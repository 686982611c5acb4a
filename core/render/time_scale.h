#pragma once
// Linear mapping between time and horizontal pixels for one view of the Gantt: the visible time
// range [t0, t1) maps onto pixels [x0, x0 + width). Shared by the layout, the level-of-detail pass,
// hit-testing and the painter so that all of them agree to the pixel.
#include <algorithm>

namespace slimpack {

struct TimeRange {
  double t0 = 0.0;
  double t1 = 1.0;
  double span() const { return t1 - t0; }
  bool operator==(const TimeRange&) const = default;
};

class TimeScale {
 public:
  TimeScale() = default;
  // A degenerate range or width is widened so that the mapping stays invertible.
  TimeScale(TimeRange range, double x0, double width)
      : range_(range), x0_(x0), width_(std::max(width, 1.0)) {
    if (!(range_.t1 > range_.t0)) range_.t1 = range_.t0 + 1.0;
    px_per_time_ = width_ / range_.span();
  }

  const TimeRange& range() const { return range_; }
  double x0() const { return x0_; }
  double width() const { return width_; }
  double px_per_time() const { return px_per_time_; }
  double time_per_px() const { return 1.0 / px_per_time_; }

  double x_of(double t) const { return x0_ + (t - range_.t0) * px_per_time_; }
  double t_of(double x) const { return range_.t0 + (x - x0_) / px_per_time_; }
  double px_of(double duration) const { return duration * px_per_time_; }

 private:
  TimeRange range_;
  double x0_ = 0.0;
  double width_ = 1.0;
  double px_per_time_ = 1.0;
};

// Zooms `range` by `factor` (> 1 zooms in) keeping time `anchor` at the same relative position,
// which is what keeps the time under the mouse cursor fixed on wheel zoom.
inline TimeRange zoom_range(const TimeRange& range, double factor, double anchor) {
  const double f = factor > 0.0 ? factor : 1.0;
  return {anchor - (anchor - range.t0) / f, anchor + (range.t1 - anchor) / f};
}

// Moves `range` by `dt` (positive = later times).
inline TimeRange pan_range(const TimeRange& range, double dt) {
  return {range.t0 + dt, range.t1 + dt};
}

}  // namespace slimpack
