#pragma once
// Runs core functions `Result run(const CancelToken&, ProgressSink&)` off the GUI thread, in the
// manner of hotspot's job tracker: every start() opens a new generation and cancels the previous
// job; a result whose generation is no longer current is dropped; results and progress are posted
// back queued to this object on the GUI thread through a guard that outlives the tracker, so a
// worker finishing after the tracker is gone posts nothing.
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/cancel.h"
#include "common/progress.h"
#include "jobs/progress_throttle.h"

namespace slimpack::ui {

class JobTracker;

namespace detail {
// Shared between the tracker and its workers. The tracker clears `target` in its destructor under
// the mutex; a worker posts only while holding it, so it never posts to a destroyed object, and
// events already queued for the tracker are discarded by Qt when it is destroyed.
struct JobGuard {
  std::mutex mutex;
  JobTracker* target = nullptr;
  void post(std::function<void(JobTracker&)> fn);
};

// Called first on a worker: lowers the thread's scheduling priority once, so the GUI thread, when
// it wakes, preempts a busy worker at once instead of waiting out the worker's time slice (on a
// machine with fewer cores than busy workers that wait was the longest GUI-thread stall).
void enterWorkerThread();

// A ProgressSink that forwards throttled reports of one generation to the tracker.
class PostingProgress final : public ProgressSink {
 public:
  PostingProgress(std::shared_ptr<JobGuard> guard, std::uint64_t generation)
      : guard_(std::move(guard)), generation_(generation) {}
  void report(std::string_view stage, double fraction) override;

 private:
  std::shared_ptr<JobGuard> guard_;
  std::uint64_t generation_;
  std::mutex mutex_;  // solvers may report from several threads
  ProgressThrottle throttle_;
};
}  // namespace detail

class JobTracker : public QObject {
  Q_OBJECT
 public:
  explicit JobTracker(QObject* parent = nullptr);
  // Cancels the running job and waits for the workers to notice (they check the token often); the
  // result of a job that finishes later is dropped.
  ~JobTracker() override;

  // Starts `work(cancel, progress)` on a worker; `done(result)` runs on the GUI thread if this job
  // is still the newest when it finishes. Returns the job's generation.
  template <class Work, class Done>
  std::uint64_t start(const QString& name, Work work, Done done) {
    using Result = std::invoke_result_t<Work&, const CancelToken&, ProgressSink&>;
    const std::uint64_t gen = begin(name);
    auto task = [guard = guard_, gen, token = token_, work = std::move(work),
                 done = std::move(done)]() mutable {
      // A job superseded before it got a thread does no work at all.
      if (token.cancelled()) return;
      detail::enterWorkerThread();
      detail::PostingProgress sink(guard, gen);
      auto result = std::make_shared<Result>(work(token, sink));
      guard->post([gen, result = std::move(result), done = std::move(done)](JobTracker& t) mutable {
        if (t.finish(gen)) done(std::move(*result));
      });
    };
    pool_.start(std::move(task));
    return gen;
  }

  // Cancels the running job (Escape): its result will be dropped.
  void cancel();
  bool busy() const { return busy_; }
  std::uint64_t generation() const { return generation_; }
  QString currentName() const { return name_; }
  // Results that arrived after a newer request or a cancel (for tests and diagnostics).
  int droppedResults() const { return dropped_; }

 signals:
  void started(const QString& name);
  void progress(const QString& stage, double fraction);
  void busyChanged(bool busy);
  void cancelled();

 private:
  friend struct detail::JobGuard;
  friend class detail::PostingProgress;
  std::uint64_t begin(const QString& name);
  bool finish(std::uint64_t gen);
  void deliverProgress(std::uint64_t gen, const QString& stage, double fraction);

  std::shared_ptr<detail::JobGuard> guard_;
  CancelToken token_;
  std::uint64_t generation_ = 0;
  bool busy_ = false;
  int dropped_ = 0;
  QString name_;
  QThreadPool pool_;  // last member: destroyed (and joined) first
};

}  // namespace slimpack::ui
