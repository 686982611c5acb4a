#include "jobs/job_tracker.h"

#include <QGlobalStatic>
#include <QMetaObject>
#include <QThread>
#include <algorithm>
#include <exception>
#include <new>
#include <string>

#if defined(__linux__)
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace slimpack::ui {
namespace detail {
namespace {
// A pool of our own rather than QThreadPool::globalInstance(): its size and its threads' priority
// are the jobs' business, and no other user of the global pool can hold up a solve.
// The interactive lane is small and separate: QThreadPool (Qt 6.4) cannot run a job beyond its
// size (startOnReservedThread still queues when every thread is busy), and a live re-solve must
// not wait for a sweep. Two threads: a superseded solve may still be finishing while the next runs.
constexpr int kInteractiveThreads = 2;
struct SharedPool {
  QThreadPool pool;
  QThreadPool interactive;
  SharedPool() {
    pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
    interactive.setMaxThreadCount(kInteractiveThreads);
  }
};
Q_GLOBAL_STATIC(SharedPool, shared_pool)
}  // namespace

void JobGuard::post(std::function<void(JobTracker&)> fn) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!target) return;
  JobTracker* t = target;
  QMetaObject::invokeMethod(
      t, [t, fn = std::move(fn)]() { fn(*t); }, Qt::QueuedConnection);
}

void JobRunnable::run() {
  {
    std::lock_guard<std::mutex> lock(guard_->mutex);
    guard_->queued.erase(this);
  }
  try {
    body_();
  } catch (...) {
    // Only reporting a failure failed (no memory even for the message): nothing can be posted.
    // The tracker stays busy until its next job, which starts normally.
  }
  body_ = nullptr;  // release the job's captures before the tracker may stop waiting for them
  std::lock_guard<std::mutex> lock(guard_->mutex);
  --guard_->in_flight;
  guard_->idle.notify_all();
}

Error errorFromCurrentException(const QString& job_name) {
  const std::string job = job_name.toStdString();
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Error::internal(job +
                           " failed: out of memory (the machine could not allocate what this "
                           "job needs; try a smaller batch or fewer micro-batches)");
  } catch (const std::exception& e) {
    return Error::internal(job + " failed: internal error: " + e.what());
  } catch (...) {
    return Error::internal(job + " failed: internal error (an exception of unknown type)");
  }
}

void enterWorkerThread() {
  thread_local bool lowered = false;
  if (lowered) return;
  lowered = true;
#if defined(__linux__)
  // SCHED_BATCH, at the process's own niceness: the scheduler treats the worker as CPU-bound and
  // lets a waking GUI thread preempt it, but the job keeps the share of the machine a `slimpack`
  // command would get. Niceness +5 (before) gave it a third of that share beside other work: on a
  // shared machine the explorer's solve and search took 2.3-3.1x the CLI's wall time for the same
  // work (scripts/bench-explorer.sh, docs/performance.md).
  sched_param param{};
  param.sched_priority = 0;
  ::sched_setscheduler(static_cast<pid_t>(::syscall(SYS_gettid)), SCHED_BATCH, &param);
#else
  QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

void PostingProgress::report(std::string_view stage, double fraction) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!throttle_.accept(ProgressThrottle::Clock::now())) return;
  }
  const QString name = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
  const std::uint64_t gen = generation_;
  guard_->post([gen, name, fraction](JobTracker& t) { t.deliverProgress(gen, name, fraction); });
}

}  // namespace detail

QThreadPool& JobTracker::workerPool() {
  return detail::shared_pool()->pool;
}

QThreadPool& JobTracker::interactivePool() {
  return detail::shared_pool()->interactive;
}

JobTracker::JobTracker(QObject* parent)
    : QObject(parent), guard_(std::make_shared<detail::JobGuard>()) {
  guard_->target = this;
}

JobTracker::~JobTracker() {
  token_.cancel();
  std::unique_lock<std::mutex> lock(guard_->mutex);
  guard_->target = nullptr;
  // Queued, not yet started jobs never run. A job the pool has just dequeued is not taken back
  // (tryTake fails); it is counted in in_flight and returns at once on the cancelled token.
  for (QRunnable* r : guard_->queued) {
    if (workerPool().tryTake(r) || interactivePool().tryTake(r)) {
      delete r;
      --guard_->in_flight;
    }
  }
  guard_->queued.clear();
  // Only this tracker's running jobs are waited for; they were cancelled above.
  guard_->idle.wait(lock, [this] { return guard_->in_flight == 0; });
}

void JobTracker::submit(std::function<void()> task) {
  auto* runnable = new detail::JobRunnable(guard_, std::move(task));
  {
    std::lock_guard<std::mutex> lock(guard_->mutex);
    guard_->queued.insert(runnable);
    ++guard_->in_flight;
  }
  (interactive_ ? interactivePool() : workerPool()).start(runnable);  // deletes it after run()
}

std::uint64_t JobTracker::begin(const QString& name) {
  token_.cancel();
  token_ = CancelToken();
  ++generation_;
  name_ = name;
  emit started(name);
  if (!busy_) {
    busy_ = true;
    emit busyChanged(true);
  }
  return generation_;
}

bool JobTracker::finish(std::uint64_t gen) {
  if (gen != generation_) {
    ++dropped_;
    return false;
  }
  busy_ = false;
  emit busyChanged(false);
  return true;
}

void JobTracker::deliverProgress(std::uint64_t gen, const QString& stage, double fraction) {
  if (gen == generation_ && busy_) emit progress(stage, fraction);
}

void JobTracker::cancel() {
  if (!busy_) return;
  token_.cancel();
  ++generation_;  // whatever the cancelled job returns is now stale
  busy_ = false;
  emit cancelled();
  emit busyChanged(false);
}

}  // namespace slimpack::ui
