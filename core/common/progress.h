#pragma once
// Staged progress reporting. Core code reports freely; sinks throttle (the UI keeps ~20 updates/s).
#include <string_view>

namespace slimpack {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // stage: what is being done ("slicing", "phase 2: replica 3", ...); fraction in [0, 1] within it.
  virtual void report(std::string_view stage, double fraction) = 0;

  static ProgressSink& none();
};

class NullProgress final : public ProgressSink {
 public:
  void report(std::string_view, double) override {}
};

inline ProgressSink& ProgressSink::none() {
  static NullProgress sink;
  return sink;
}

}  // namespace slimpack
