#include "thread_pool.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace slimpack::cli {

ThreadPool::ThreadPool(int workers)
    : workers_(workers > 0 ? workers
                           : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))) {}

void ThreadPool::run_on_workers(const std::function<void(int)>& body) {
  std::vector<std::jthread> threads;
  threads.reserve(static_cast<std::size_t>(workers_ - 1));
  for (int w = 1; w < workers_; ++w) threads.emplace_back([&body, w] { body(w); });
  body(0);
}  // the jthreads join here

}  // namespace slimpack::cli
