// The worker pool every JobTracker shares, and jobs that throw. All trackers run on one pool of
// QThread::idealThreadCount() threads (at least one); an exception escaping a job, std or not,
// reaches the GUI thread as an ordinary error result and the tracker keeps working. Workers are
// steered with condition variables; QTRY_* only bounds how long the event loop is spun.
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "job_gate.h"
#include "jobs/job_tracker.h"

using namespace slimpack;
using namespace slimpack::ui;
using slimpack::ui::testing::Gate;

namespace {

// Not derived from std::exception: what a third-party library or a careless `throw 42` sends.
struct NotAStdException {
  int code = 7;
};

// Where a job ran, reported back through the result.
struct Ran {
  QThread* thread = nullptr;
};

}  // namespace

class TestJobsPool : public QObject {
  Q_OBJECT
 private slots:
  void poolIsSizedToTheMachine() {
    QCOMPARE(JobTracker::workerPool().maxThreadCount(), std::max(1, QThread::idealThreadCount()));
  }

  void trackersShareOnePool() {
    // One holding job per tracker until every pool thread is busy; a job of one more tracker
    // then waits and runs on the thread the first released holder gives back. With a pool per
    // tracker it would run at once on a thread of its own.
    const int threads = JobTracker::workerPool().maxThreadCount();
    std::vector<std::unique_ptr<JobTracker>> trackers;
    std::vector<std::shared_ptr<Gate>> gates;
    std::mutex m;
    std::vector<QThread*> holder_threads(static_cast<std::size_t>(threads), nullptr);
    for (int i = 0; i < threads; ++i) {
      trackers.push_back(std::make_unique<JobTracker>());
      gates.push_back(std::make_shared<Gate>());
      trackers.back()->start(
          "hold",
          [gate = gates.back(), i, &m, &holder_threads](const CancelToken&,
                                                        ProgressSink&) -> Expected<int> {
            {
              std::lock_guard<std::mutex> lock(m);
              holder_threads[static_cast<std::size_t>(i)] = QThread::currentThread();
            }
            gate->hold();
            return i;
          },
          [](Expected<int>) {});
      QTRY_COMPARE(gates.back()->entered.load(), 1);
    }
    QCOMPARE(JobTracker::workerPool().activeThreadCount(), threads);

    JobTracker extra;
    std::optional<Expected<Ran>> extra_result;
    std::atomic<bool> extra_started{false};
    extra.start(
        "extra",
        [&extra_started](const CancelToken&, ProgressSink&) -> Expected<Ran> {
          extra_started = true;
          return Ran{QThread::currentThread()};
        },
        [&](Expected<Ran> r) { extra_result = std::move(r); });
    QVERIFY(extra.busy());
    QCOMPARE(JobTracker::workerPool().activeThreadCount(), threads);
    QVERIFY(!extra_started.load());  // every pool thread is held

    gates.front()->release();  // frees exactly one pool thread
    QTRY_VERIFY(extra_result.has_value());
    QVERIFY(extra_result->ok());
    QCOMPARE((*extra_result)->thread, holder_threads.front());

    for (auto& gate : gates) gate->release();
    for (auto& t : trackers) QTRY_VERIFY(!t->busy());
  }

  void interactiveJobStartsAtOnceWhenThePoolIsFull() {
    // Every pool thread held by a background tracker: an interactive tracker's job (the live
    // re-solve) still runs at once, on its own lane.
    const int threads = JobTracker::workerPool().maxThreadCount();
    std::vector<std::unique_ptr<JobTracker>> trackers;
    auto gate = std::make_shared<Gate>();
    for (int i = 0; i < threads; ++i) {
      trackers.push_back(std::make_unique<JobTracker>());
      trackers.back()->start(
          "hold",
          [gate](const CancelToken&, ProgressSink&) -> Expected<int> {
            gate->hold();
            return 0;
          },
          [](Expected<int>) {});
    }
    QTRY_COMPARE(gate->entered.load(), threads);
    JobTracker live;
    live.setInteractive(true);
    std::optional<Expected<int>> result;
    live.start(
        "solve", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 42; },
        [&](Expected<int> r) { result = std::move(r); });
    QTRY_VERIFY(result.has_value());  // before any holder is released
    QVERIFY(result->ok());
    QCOMPARE(**result, 42);
    QCOMPARE(gate->entered.load(), threads);
    QCOMPARE(JobTracker::workerPool().activeThreadCount(), threads);  // still all held
    QCOMPARE(JobTracker::interactivePool().maxThreadCount(), 2);
    gate->release();
    for (auto& t : trackers) QTRY_VERIFY(!t->busy());
  }

  void trackerDestroyedWhileQueuedDoesNotWaitForOthers() {
    // A tracker whose job is still queued behind another tracker's work takes it back: its
    // destructor neither runs the job nor waits for the other tracker's holders.
    const int threads = JobTracker::workerPool().maxThreadCount();
    JobTracker holders;
    auto gate = std::make_shared<Gate>();
    for (int i = 0; i < threads; ++i) {
      holders.start(
          "hold",
          [gate](const CancelToken&, ProgressSink&) -> Expected<int> {
            gate->hold();
            return 0;
          },
          [](Expected<int>) {});
      QTRY_COMPARE(gate->entered.load(), i + 1);
    }
    std::atomic<bool> queued_ran{false};
    {
      JobTracker short_lived;
      short_lived.start(
          "queued",
          [&queued_ran](const CancelToken&, ProgressSink&) -> Expected<int> {
            queued_ran = true;
            return 1;
          },
          [](Expected<int>) { QFAIL("result delivered after the tracker was destroyed"); });
    }  // would deadlock here if the destructor waited for the holders
    gate->release();
    QTRY_VERIFY(!holders.busy());
    QCoreApplication::processEvents();
    QVERIFY(!queued_ran.load());
  }

  void badAllocBecomesAnErrorResultAndTheNextJobRuns() {
    JobTracker jobs;
    std::optional<Expected<int>> first;
    jobs.start(
        tr("Simulating"),
        [](const CancelToken&, ProgressSink&) -> Expected<int> { throw std::bad_alloc(); },
        [&](Expected<int> r) { first = std::move(r); });
    QTRY_VERIFY(first.has_value());
    QVERIFY(!first->ok());
    QCOMPARE(first->error().kind, ErrorKind::Internal);
    const QString message = QString::fromStdString(first->error().message);
    QVERIFY2(message.startsWith("Simulating failed: out of memory"), qPrintable(message));
    QVERIFY(!jobs.busy());
    QCOMPARE(jobs.droppedResults(), 0);

    int next = 0;
    jobs.start(
        "next", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 11; },
        [&](Expected<int> r) { next = *r; });
    QTRY_COMPARE(next, 11);
    QVERIFY(!jobs.busy());
  }

  void stdExceptionNamesItsReason() {
    JobTracker jobs;
    std::optional<Status> got;
    jobs.start(
        "Exporting",
        [](const CancelToken&, ProgressSink&) -> Status {
          throw std::runtime_error("index 9 out of range");
        },
        [&](Status s) { got = s; });
    QTRY_VERIFY(got.has_value());
    QVERIFY(!got->ok());
    QCOMPARE(QString::fromStdString(got->error().message),
             QStringLiteral("Exporting failed: internal error: index 9 out of range"));
  }

  void nonStdExceptionBecomesAnErrorResultAndTheNextJobRuns() {
    JobTracker jobs;
    std::optional<Expected<int>> first;
    jobs.start(
        "Comparing",
        [](const CancelToken&, ProgressSink&) -> Expected<int> { throw NotAStdException{}; },
        [&](Expected<int> r) { first = std::move(r); });
    QTRY_VERIFY(first.has_value());
    QVERIFY(!first->ok());
    QCOMPARE(QString::fromStdString(first->error().message),
             QStringLiteral("Comparing failed: internal error (an exception of unknown type)"));
    QVERIFY(!jobs.busy());

    int next = 0;
    jobs.start(
        "next", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 12; },
        [&](Expected<int> r) { next = *r; });
    QTRY_COMPARE(next, 12);
  }

  void staleJobThatThrowsIsDropped() {
    // A superseded job failing late is as stale as one succeeding late.
    JobTracker jobs;
    auto gate = std::make_shared<Gate>();
    std::vector<QString> delivered;
    jobs.start(
        "old",
        [gate](const CancelToken& c, ProgressSink&) -> Expected<int> {
          gate->wait(c);
          throw std::bad_alloc();
        },
        [&](Expected<int> r) { delivered.push_back(r ? "value" : "error"); });
    QTRY_COMPARE(gate->entered.load(), 1);
    jobs.start(
        "new", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 3; },
        [&](Expected<int> r) { delivered.push_back(r ? "value" : "error"); });
    QTRY_COMPARE(jobs.droppedResults(), 1);
    QTRY_COMPARE(delivered.size(), std::size_t{1});
    QCOMPARE(delivered.front(), QStringLiteral("value"));
  }

  void cancelledJobThatThrowsIsDropped() {
    JobTracker jobs;
    auto gate = std::make_shared<Gate>();
    QSignalSpy cancelled(&jobs, &JobTracker::cancelled);
    bool delivered = false;
    jobs.start(
        "long",
        [gate](const CancelToken& c, ProgressSink&) -> Expected<int> {
          gate->wait(c);
          throw NotAStdException{};
        },
        [&](Expected<int>) { delivered = true; });
    QTRY_COMPARE(gate->entered.load(), 1);
    jobs.cancel();
    QCOMPARE(cancelled.count(), 1);
    QTRY_COMPARE(jobs.droppedResults(), 1);
    QVERIFY(!delivered);
    QVERIFY(!jobs.busy());
  }

#if defined(__linux__)
  void workersRunAsBatchAtTheProcessPriority() {
    // Worker threads are SCHED_BATCH (a waking GUI thread preempts them) at the GUI thread's own
    // niceness: the job gets the share of the machine the CLI would, not a third of it (nice +5).
    const int gui_nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
    JobTracker jobs;
    std::pair<int, int> worker{-100, -100};  // niceness, scheduling policy
    jobs.start(
        "batch",
        [](const CancelToken&, ProgressSink&) -> Expected<std::pair<int, int>> {
          const auto tid = static_cast<pid_t>(::syscall(SYS_gettid));
          return std::pair<int, int>{::getpriority(PRIO_PROCESS, static_cast<id_t>(tid)),
                                     ::sched_getscheduler(tid)};
        },
        [&](Expected<std::pair<int, int>> r) { worker = *r; });
    QTRY_VERIFY(worker.first != -100);
    QCOMPARE(worker.first, gui_nice);
    QCOMPARE(worker.second, SCHED_BATCH);
    QCOMPARE(::sched_getscheduler(static_cast<pid_t>(::syscall(SYS_gettid))), SCHED_OTHER);
  }
#endif
};

QTEST_GUILESS_MAIN(TestJobsPool)
#include "test_jobs_pool.moc"
