#include "jobs/job_tracker.h"

#include <QMetaObject>
#include <QThread>
#include <algorithm>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace slimpack::ui {
namespace detail {
namespace {
constexpr int kWorkerNiceness = 5;
}  // namespace

void JobGuard::post(std::function<void(JobTracker&)> fn) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!target) return;
  JobTracker* t = target;
  QMetaObject::invokeMethod(
      t, [t, fn = std::move(fn)]() { fn(*t); }, Qt::QueuedConnection);
}

void enterWorkerThread() {
  thread_local bool lowered = false;
  if (lowered) return;
  lowered = true;
#if defined(__linux__)
  // Linux ignores QThread priorities under SCHED_OTHER; per-thread niceness is what CFS weighs.
  // Nice 5 gives a worker a third of the GUI thread's weight: enough for wake-up preemption,
  // while the solver still gets its fair share of a machine shared with other programs.
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  const int now = ::getpriority(PRIO_PROCESS, tid);
  ::setpriority(PRIO_PROCESS, tid, std::min(now + kWorkerNiceness, 19));
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

JobTracker::JobTracker(QObject* parent)
    : QObject(parent), guard_(std::make_shared<detail::JobGuard>()) {
  guard_->target = this;
  // Two threads: a superseded job can still be unwinding its cancellation while the newest runs.
  pool_.setMaxThreadCount(2);
}

JobTracker::~JobTracker() {
  {
    std::lock_guard<std::mutex> lock(guard_->mutex);
    guard_->target = nullptr;
  }
  token_.cancel();
  pool_.clear();  // queued, not yet started jobs never run
  // pool_ is destroyed next and joins the running workers; they were cancelled above.
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
