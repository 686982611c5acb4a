// JobTracker: newest request wins, stale results are dropped, cancel is an ordinary outcome, no
// result outlives the tracker, progress is throttled. Workers are steered with condition
// variables, never with sleeps; QTRY_* only bounds how long the event loop is spun.
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <memory>
#include <mutex>

#include "job_gate.h"
#include "jobs/job_tracker.h"
#include "jobs/progress_throttle.h"

using namespace slimpack;
using namespace slimpack::ui;
using slimpack::ui::testing::Gate;

namespace {

// Counts live instances: a leaked result keeps the count above zero.
struct Counted {
  static std::atomic<int> live;
  int value = 0;
  explicit Counted(int v) : value(v) { ++live; }
  Counted(const Counted& o) : value(o.value) { ++live; }
  Counted(Counted&& o) noexcept : value(o.value) { ++live; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --live; }
};
std::atomic<int> Counted::live{0};

}  // namespace

class TestJobs : public QObject {
  Q_OBJECT
 private slots:
  void deliversResultOnGuiThread() {
    JobTracker jobs;
    QSignalSpy busy(&jobs, &JobTracker::busyChanged);
    int got = 0;
    QThread* delivered_on = nullptr;
    jobs.start(
        "sum", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 2 + 3; },
        [&](Expected<int> v) {
          got = *v;
          delivered_on = QThread::currentThread();
        });
    QVERIFY(jobs.busy());
    QTRY_COMPARE(got, 5);
    QCOMPARE(delivered_on, QThread::currentThread());
    QVERIFY(!jobs.busy());
    QCOMPARE(busy.count(), 2);  // true, then false
    QCOMPARE(jobs.droppedResults(), 0);
  }

  void newerRequestCancelsOlderAndDropsItsResult() {
    JobTracker jobs;
    auto gate = std::make_shared<Gate>();
    std::atomic<bool> first_saw_cancel{false};
    std::vector<int> delivered;
    jobs.start(
        "first",
        [gate, &first_saw_cancel](const CancelToken& c, ProgressSink&) -> Expected<int> {
          first_saw_cancel = gate->wait(c);
          return 1;  // returns normally even when cancelled: still must be dropped
        },
        [&](Expected<int> v) { delivered.push_back(*v); });
    QTRY_COMPARE(gate->entered.load(), 1);
    const auto gen2 = jobs.start(
        "second", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 2; },
        [&](Expected<int> v) { delivered.push_back(*v); });
    QCOMPARE(gen2, jobs.generation());
    QTRY_COMPARE(jobs.droppedResults(), 1);
    QTRY_COMPARE(delivered.size(), std::size_t{1});
    QCOMPARE(delivered.front(), 2);
    QVERIFY(first_saw_cancel.load());
    QVERIFY(!jobs.busy());
  }

  void staleResultFinishingLastIsDropped() {
    // The older job finishes after the newer one: its late result must not replace the newer.
    JobTracker jobs;
    auto gate = std::make_shared<Gate>();
    std::vector<int> delivered;
    jobs.start(
        "slow",
        [gate](const CancelToken& c, ProgressSink&) -> Expected<int> {
          gate->wait(c);
          return 1;
        },
        [&](Expected<int> v) { delivered.push_back(*v); });
    QTRY_COMPARE(gate->entered.load(), 1);
    jobs.start(
        "fast", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 2; },
        [&](Expected<int> v) { delivered.push_back(*v); });
    QTRY_COMPARE(delivered.size(), std::size_t{1});
    QTRY_COMPARE(jobs.droppedResults(), 1);
    QCOMPARE(delivered, std::vector<int>{2});
  }

  void cancelDropsTheResult() {
    JobTracker jobs;
    auto gate = std::make_shared<Gate>();
    QSignalSpy cancelled(&jobs, &JobTracker::cancelled);
    bool delivered = false;
    jobs.start(
        "long",
        [gate](const CancelToken& c, ProgressSink&) -> Expected<bool> { return gate->wait(c); },
        [&](Expected<bool>) { delivered = true; });
    QTRY_COMPARE(gate->entered.load(), 1);
    jobs.cancel();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!jobs.busy());
    QTRY_COMPARE(jobs.droppedResults(), 1);
    QVERIFY(!delivered);
  }

  void noResultOutlivesTheTracker() {
    QCOMPARE(Counted::live.load(), 0);
    auto gate = std::make_shared<Gate>();
    {
      JobTracker jobs;
      jobs.start(
          "leak?",
          [gate](const CancelToken& c, ProgressSink&) -> Expected<Counted> {
            gate->wait(c);
            return Counted(7);
          },
          [](Expected<Counted>) { QFAIL("result delivered after the tracker was destroyed"); });
      QTRY_COMPARE(gate->entered.load(), 1);
      // Destroying the tracker cancels the job and joins its worker; the result it still builds
      // is dropped with the lambda that would have posted it.
    }
    QCoreApplication::processEvents();
    QCOMPARE(Counted::live.load(), 0);
  }

  void deliveredResultIsReleased() {
    {
      JobTracker jobs;
      int value = 0;
      jobs.start(
          "counted",
          [](const CancelToken&, ProgressSink&) -> Expected<Counted> { return Counted(3); },
          [&](Expected<Counted> c) { value = c->value; });
      QTRY_COMPARE(value, 3);
    }
    QCOMPARE(Counted::live.load(), 0);
  }

  void progressCarriesStageNames() {
    JobTracker jobs;
    QSignalSpy progress(&jobs, &JobTracker::progress);
    auto gate = std::make_shared<Gate>();
    jobs.start(
        "staged",
        [gate](const CancelToken& c, ProgressSink& p) -> Expected<int> {
          p.report("solving", 0.25);  // the first report always passes the throttle
          gate->wait(c);
          return 0;
        },
        [](Expected<int>) {});
    QTRY_COMPARE(progress.count(), 1);
    QCOMPARE(progress.at(0).at(0).toString(), QStringLiteral("solving"));
    QCOMPARE(progress.at(0).at(1).toDouble(), 0.25);
    gate->release();
    QTRY_VERIFY(!jobs.busy());
  }

  void throttleForwardsAtMostOnePerInterval() {
    using namespace std::chrono;
    ProgressThrottle t(milliseconds(50));
    const ProgressThrottle::Clock::time_point t0{};
    int forwarded = 0;
    // 1000 reports, one per millisecond: exactly one per started 50 ms window.
    for (int i = 0; i < 1000; ++i) forwarded += t.accept(t0 + milliseconds(i)) ? 1 : 0;
    QCOMPARE(forwarded, 20);
    // The last forwarded report was at 950 ms: the next passes at 1000 ms, not before.
    QVERIFY(!t.accept(t0 + milliseconds(999)));
    QVERIFY(t.accept(t0 + milliseconds(1000)));
  }

  void supersededQueuedJobNeverRuns() {
    // Fill every thread of the shared pool with gated jobs, queue one more, supersede it before
    // it starts.
    const int threads = JobTracker::workerPool().maxThreadCount();
    JobTracker jobs;
    auto gate = std::make_shared<Gate>();
    std::atomic<int> third_ran{0};
    auto hold = [gate](const CancelToken&, ProgressSink&) -> Expected<int> {
      gate->hold();
      return 0;
    };
    for (int i = 0; i < threads; ++i) {
      jobs.start("hold", hold, [](Expected<int>) {});
      // Running: superseding it no longer stops it.
      QTRY_COMPARE(gate->entered.load(), i + 1);
    }
    jobs.start(
        "queued",
        [&third_ran](const CancelToken&, ProgressSink&) -> Expected<int> { return ++third_ran; },
        [](Expected<int>) {});
    int last = 0;
    jobs.start(
        "newest", [](const CancelToken&, ProgressSink&) -> Expected<int> { return 4; },
        [&](Expected<int> v) { last = *v; });
    gate->release();
    QTRY_COMPARE(last, 4);
    QCOMPARE(third_ran.load(), 0);
  }
};

QTEST_GUILESS_MAIN(TestJobs)
#include "test_jobs.moc"
