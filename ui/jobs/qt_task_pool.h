#pragma once
// A TaskPool (core/common/task_pool.h) over the explorer's shared worker pool, for core functions
// that can use several workers (run_search). The job calling it already runs on a worker: it runs
// body(0) itself and offers body(1..n-1) to the pool. Since the body pulls its own work, the work
// gets done even when no other thread is free; the offers no thread took by the time body(0)
// returns are taken back, and the ones that started are waited for. So a busy pool never
// deadlocks it, and it never holds more threads than the pool has.
#include <QThreadPool>

#include "common/task_pool.h"

namespace slimpack::ui {

class QtTaskPool final : public TaskPool {
 public:
  // workers = 0: the pool's thread count.
  explicit QtTaskPool(QThreadPool& pool, int workers = 0);
  int workers() const override { return workers_; }
  void run_on_workers(const std::function<void(int)>& body) override;

 private:
  QThreadPool& pool_;
  int workers_;
};

}  // namespace slimpack::ui
