#pragma once
// Progress of a long command on stderr (search, dataset): one line rewritten in place on a
// terminal, a line every 10 s otherwise (a Slurm log; nothing for a short run, so error output
// stays one line).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "common/progress.h"

namespace slimpack::cli {

class StderrProgress final : public ProgressSink {
 public:
  // `percent`: the stage is followed by the fraction done ("dataset: 16 batches ... 40%"), for a
  // command whose stage text does not count for itself.
  explicit StderrProgress(bool quiet, bool percent = false)
      : quiet_(quiet), percent_(percent), tty_(isatty(STDERR_FILENO) != 0) {}
  ~StderrProgress() override {
    if (tty_ && shown_) std::fputs("\r\033[K", stderr);
  }
  void report(std::string_view stage, double fraction) override {
    if (quiet_) return;
    const auto now = std::chrono::steady_clock::now();
    // A terminal at most 10 times a second; a log every 10 s, none for a run shorter than that.
    if (now - last_ < (tty_ ? std::chrono::milliseconds(100) : std::chrono::seconds(10))) return;
    last_ = now;
    shown_ = true;
    const int pct = static_cast<int>(std::lround(fraction * 100.0));
    std::fprintf(stderr, tty_ ? "\r\033[K%.*s" : "%.*s", static_cast<int>(stage.size()),
                 stage.data());
    if (percent_) std::fprintf(stderr, " %d%%", pct);
    if (!tty_) std::fputc('\n', stderr);
    std::fflush(stderr);
  }

 private:
  bool quiet_;
  bool percent_;
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace slimpack::cli
