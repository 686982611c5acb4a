#pragma once
// Workers a core function may be handed. Core starts no threads of its own (docs/architecture.md):
// a front end passes a pool in (the CLI's std::thread pool, the explorer's worker pool) and a
// function that can use several workers runs its loop on them. The serial pool runs everything on
// the calling thread, so the same code works with no threads at all.
#include <atomic>
#include <cstddef>
#include <functional>

namespace slimpack {

class TaskPool {
 public:
  virtual ~TaskPool() = default;
  // How many workers run_on_workers uses (at least 1).
  virtual int workers() const = 0;
  // Runs body(worker) once on each of the workers (worker = 0 .. workers() - 1), concurrently, and
  // returns when every call has returned. The body pulls its own work (a shared counter) and must
  // not throw.
  virtual void run_on_workers(const std::function<void(int worker)>& body) = 0;

  // One worker: the calling thread.
  static TaskPool& serial();
};

class SerialTaskPool final : public TaskPool {
 public:
  int workers() const override { return 1; }
  void run_on_workers(const std::function<void(int)>& body) override { body(0); }
};

inline TaskPool& TaskPool::serial() {
  static SerialTaskPool pool;
  return pool;
}

// Calls item(i) once for every i in [0, n) on the pool's workers, which claim the indices in order
// from one shared counter (a slow item does not hold up the others). item must not throw.
template <class Item>
void for_each_index(TaskPool& pool, std::size_t n, const Item& item) {
  std::atomic<std::size_t> next{0};
  pool.run_on_workers([&](int) {
    for (std::size_t i = next++; i < n; i = next++) item(i);
  });
}

}  // namespace slimpack
