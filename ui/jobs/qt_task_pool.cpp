#include "jobs/qt_task_pool.h"

#include <QRunnable>
#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "jobs/job_tracker.h"

namespace slimpack::ui {
namespace {

struct Finished {
  std::mutex mutex;
  std::condition_variable cv;
  int running = 0;
};

class Offer final : public QRunnable {
 public:
  Offer(const std::function<void(int)>& body, int worker, Finished& finished)
      : body_(body), worker_(worker), finished_(finished) {
    setAutoDelete(false);
  }
  void run() override {
    detail::enterWorkerThread();
    body_(worker_);
    std::lock_guard lock(finished_.mutex);
    --finished_.running;
    finished_.cv.notify_all();
  }

 private:
  const std::function<void(int)>& body_;
  int worker_;
  Finished& finished_;
};

}  // namespace

QtTaskPool::QtTaskPool(QThreadPool& pool, int workers)
    : pool_(pool), workers_(std::max(1, workers > 0 ? workers : pool.maxThreadCount())) {}

void QtTaskPool::run_on_workers(const std::function<void(int)>& body) {
  Finished finished;
  std::vector<std::unique_ptr<Offer>> offers;
  for (int w = 1; w < workers_; ++w) {
    offers.push_back(std::make_unique<Offer>(body, w, finished));
    {
      std::lock_guard lock(finished.mutex);
      ++finished.running;
    }
    pool_.start(offers.back().get());
  }
  body(0);
  for (auto& offer : offers)
    if (pool_.tryTake(offer.get())) {
      std::lock_guard lock(finished.mutex);
      --finished.running;
    }
  std::unique_lock lock(finished.mutex);
  finished.cv.wait(lock, [&] { return finished.running == 0; });
}

}  // namespace slimpack::ui
