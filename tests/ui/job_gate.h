#pragma once
// A gate a job's worker waits on until the test opens it (or its job is cancelled): the job tests
// steer workers with condition variables, never with sleeps.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "common/cancel.h"

namespace slimpack::ui::testing {

struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  std::atomic<int> entered{0};
  void release() {
    {
      std::lock_guard<std::mutex> lock(m);
      open = true;
    }
    cv.notify_all();
  }
  // Waits until released or cancelled; returns true when cancelled.
  bool wait(const CancelToken& cancel) {
    ++entered;
    std::unique_lock<std::mutex> lock(m);
    while (!open && !cancel.cancelled()) cv.wait_for(lock, std::chrono::milliseconds(1));
    return !open;
  }
  // Waits until released, whatever happens to the job (keeps a pool thread occupied).
  void hold() {
    ++entered;
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [this] { return open; });
  }
};

}  // namespace slimpack::ui::testing
