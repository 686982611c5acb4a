#pragma once
// Runs core functions `Result run(const CancelToken&, ProgressSink&)` off the GUI thread, in the
// manner of hotspot's job tracker: every start() opens a new generation and cancels the previous
// job; a result whose generation is no longer current is dropped; results and progress are posted
// back queued to this object on the GUI thread through a guard that outlives the tracker, so a
// worker finishing after the tracker is gone posts nothing.
//
// Every tracker runs its jobs on one worker pool shared by the whole program and sized to the
// machine, so five trackers on two cores no longer mean ten busy threads. `Result` must be
// constructible from an `Error` (Expected<T>, Status): an exception escaping a job (bad_alloc
// from the simulator's arena, a bug) becomes such an error result instead of ending the program.
#include <QObject>
#include <QRunnable>
#include <QString>
#include <QThreadPool>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "jobs/progress_throttle.h"

namespace slimpack::ui {

class JobTracker;

namespace detail {
// Shared between the tracker and its workers. The tracker clears `target` in its destructor under
// the mutex; a worker posts only while holding it, so it never posts to a destroyed object, and
// events already queued for the tracker are discarded by Qt when it is destroyed.
// It also counts the tracker's jobs in the shared pool, so the tracker's destructor can take back
// the ones still queued and wait for the running ones only, not for other trackers' work.
struct JobGuard {
  std::mutex mutex;
  JobTracker* target = nullptr;
  std::set<QRunnable*> queued;  // submitted, not yet started
  int in_flight = 0;            // queued or running
  std::condition_variable idle;
  void post(std::function<void(JobTracker&)> fn);
};

// One job in the shared pool: leaves `queued` when a worker picks it up, counts down `in_flight`
// when done. Never lets an exception reach Qt (an exception leaving QRunnable::run terminates).
class JobRunnable final : public QRunnable {
 public:
  JobRunnable(std::shared_ptr<JobGuard> guard, std::function<void()> body)
      : guard_(std::move(guard)), body_(std::move(body)) {}
  void run() override;

 private:
  std::shared_ptr<JobGuard> guard_;
  std::function<void()> body_;
};

// Turns the exception being handled (call only inside a catch block) into an error that names the
// job and the reason: "Solving failed: out of memory ...", "... failed: internal error: <what>".
Error errorFromCurrentException(const QString& job_name);

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
  // Cancels the running job, takes this tracker's queued jobs back from the shared pool and waits
  // for its running ones to notice (they check the token often); their results are dropped.
  ~JobTracker() override;

  // Starts `work(cancel, progress)` on a worker; `done(result)` runs on the GUI thread if this job
  // is still the newest when it finishes. Returns the job's generation.
  // A job that throws delivers `Result(Error)` naming the job and the exception, like any failure.
  template <class Work, class Done>
  std::uint64_t start(const QString& name, Work work, Done done) {
    using Result = std::invoke_result_t<Work&, const CancelToken&, ProgressSink&>;
    static_assert(std::is_constructible_v<Result, Error>,
                  "a job returns Expected<T> or Status, so that a failure (an exception included) "
                  "reaches the GUI as an error result");
    const std::uint64_t gen = begin(name);
    auto task = [guard = guard_, gen, name, token = token_, work = std::move(work),
                 done = std::move(done)]() mutable {
      // A job superseded before it got a thread does no work at all.
      if (token.cancelled()) return;
      detail::enterWorkerThread();
      detail::PostingProgress sink(guard, gen);
      std::shared_ptr<Result> result;
      try {
        result = std::make_shared<Result>(work(token, sink));
      } catch (...) {
        // The work's own memory is released by now, so reporting the failure can allocate.
        result = std::make_shared<Result>(detail::errorFromCurrentException(name));
      }
      guard->post([gen, result = std::move(result), done = std::move(done)](JobTracker& t) mutable {
        if (t.finish(gen)) done(std::move(*result));
      });
    };
    submit(std::move(task));
    return gen;
  }

  // The worker pool every tracker shares: QThread::idealThreadCount() threads, at least one.
  static QThreadPool& workerPool();

  // An interactive tracker (the live re-solve, opening a file) never queues behind the other
  // trackers' long jobs (a sweep, a comparison): its jobs run on a small lane of their own
  // (interactivePool(), two threads, at the same lower priority).
  static QThreadPool& interactivePool();
  void setInteractive(bool interactive) { interactive_ = interactive; }
  bool interactive() const { return interactive_; }

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
  void submit(std::function<void()> task);
  bool finish(std::uint64_t gen);
  void deliverProgress(std::uint64_t gen, const QString& stage, double fraction);

  std::shared_ptr<detail::JobGuard> guard_;
  bool interactive_ = false;
  CancelToken token_;
  std::uint64_t generation_ = 0;
  bool busy_ = false;
  int dropped_ = 0;
  QString name_;
};

}  // namespace slimpack::ui
