#pragma once
// Decides which progress reports reach the GUI: at most one per interval (default 50 ms, i.e.
// 20 updates/s), so a solver that reports per item cannot flood the event loop. Qt-free and
// clock-injected so that its rule is tested without sleeping.
#include <chrono>

namespace slimpack::ui {

class ProgressThrottle {
 public:
  using Clock = std::chrono::steady_clock;
  explicit ProgressThrottle(Clock::duration interval = std::chrono::milliseconds(50))
      : interval_(interval) {}

  // True when a report at `now` should be forwarded: the first one, or the first one at least one
  // interval after the last forwarded report.
  bool accept(Clock::time_point now) {
    if (has_last_ && now - last_ < interval_) return false;
    last_ = now;
    has_last_ = true;
    return true;
  }

 private:
  Clock::duration interval_;
  // A flag beside a value rather than std::optional: GCC 12 at -O2 reports a false
  // maybe-uninitialized on optional<time_point>.
  Clock::time_point last_{};
  bool has_last_ = false;
};

}  // namespace slimpack::ui
