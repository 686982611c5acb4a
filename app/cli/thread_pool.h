#pragma once
// The CLI's TaskPool (core/common/task_pool.h): run_on_workers starts workers - 1 std::threads
// and runs the last worker on the calling thread. Core functions get it passed in; core itself
// starts no threads.
#include "common/task_pool.h"

namespace slimpack::cli {

class ThreadPool final : public TaskPool {
 public:
  // 0 = one worker per hardware thread.
  explicit ThreadPool(int workers);
  int workers() const override { return workers_; }
  void run_on_workers(const std::function<void(int)>& body) override;

 private:
  int workers_;
};

}  // namespace slimpack::cli
