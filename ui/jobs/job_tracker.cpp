#include "jobs/job_tracker.h"

#include <QMetaObject>

namespace slimpack::ui {
namespace detail {

void JobGuard::post(std::function<void(JobTracker&)> fn) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!target) return;
  JobTracker* t = target;
  QMetaObject::invokeMethod(
      t, [t, fn = std::move(fn)]() { fn(*t); }, Qt::QueuedConnection);
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
