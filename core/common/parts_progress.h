#pragma once
// Progress of work split into parts that run on several threads at once (the files of a multi-rank
// import, the ranks of a summary): each part reports its own fraction, and the sink sees the mean
// under one stage name. The sink need not be thread-safe: reports reach it under a lock.
#include <algorithm>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/progress.h"

namespace slimpack {

class PartsProgress {
 public:
  PartsProgress(ProgressSink& out, std::string stage, std::size_t parts)
      : out_(out), stage_(std::move(stage)), fractions_(parts, 0.0) {}

  void report(std::size_t part, double fraction) {
    const std::lock_guard<std::mutex> lock(mutex_);
    fractions_[part] = fraction;
    double sum = 0.0;
    for (double f : fractions_) sum += f;
    out_.report(stage_, sum / static_cast<double>(std::max<std::size_t>(1, fractions_.size())));
  }

 private:
  ProgressSink& out_;
  const std::string stage_;
  std::mutex mutex_;
  std::vector<double> fractions_;
};

// One part's sink: what the part's own code reports, scaled into [0, share] of the part.
class PartProgress final : public ProgressSink {
 public:
  PartProgress(PartsProgress& parts, std::size_t part, double share = 1.0)
      : parts_(parts), part_(part), share_(share) {}
  void report(std::string_view, double fraction) override {
    parts_.report(part_, share_ * fraction);
  }

 private:
  PartsProgress& parts_;
  std::size_t part_;
  double share_;
};

}  // namespace slimpack
