// The window's job board: every tracker registers, the board is busy while any job runs, names
// what runs, cancels through a tracker's own hook, and forgets a tracker that goes. In the window:
// a trace load shows in the status bar and Escape cancels it, as it does a solve.
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

#include "job_gate.h"
#include "jobs/job_board.h"
#include "jobs/job_tracker.h"
#include "open_window.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"

using namespace slimpack;
using namespace slimpack::ui;
using slimpack::ui::testing::Gate;

namespace {

constexpr int kTimeoutMs = 60000;

// Starts a job on `jobs` that waits on `gate` (or its cancel) and returns a Status.
void startGated(JobTracker& jobs, const QString& name, std::shared_ptr<Gate> gate) {
  jobs.start(
      name,
      [gate](const CancelToken& c, ProgressSink&) -> Status {
        gate->wait(c);
        return {};
      },
      [](Status) {});
}

}  // namespace

class TestJobsBoard : public QObject {
  Q_OBJECT
 private slots:
  void busyWhileAnyJobRunsAndNamesThem() {
    JobBoard board;
    JobTracker a, b;
    board.add(&a);
    board.add(&b);
    board.add(&a);  // once only
    QCOMPARE(board.trackers(), 2);
    QSignalSpy busy(&board, &JobBoard::busyChanged);
    auto gate_a = std::make_shared<Gate>(), gate_b = std::make_shared<Gate>();
    startGated(a, "Loading trace", gate_a);
    startGated(b, "Sweeping", gate_b);
    QVERIFY(board.busy());
    QCOMPARE(board.running(), QStringList({"Loading trace", "Sweeping"}));
    QCOMPARE(busy.count(), 1);  // idle -> busy once, however many jobs start
    gate_a->release();
    QTRY_VERIFY_WITH_TIMEOUT(!a.busy(), kTimeoutMs);
    QVERIFY(board.busy());  // b still runs
    QCOMPARE(board.running(), QStringList({"Sweeping"}));
    gate_b->release();
    QTRY_VERIFY_WITH_TIMEOUT(!board.busy(), kTimeoutMs);
    QCOMPARE(busy.count(), 2);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
  }

  void cancelAllCancelsEveryBusyJobThroughItsHook() {
    JobBoard board;
    JobTracker plain, hooked, idle;
    int hook_calls = 0;
    board.add(&plain);
    board.add(&hooked, [&] {
      ++hook_calls;
      hooked.cancel();
    });
    board.add(&idle);
    auto gate = std::make_shared<Gate>();
    startGated(plain, "one", gate);
    startGated(hooked, "two", gate);
    QCOMPARE(board.cancelAll(), 2);
    QCOMPARE(hook_calls, 1);
    QVERIFY(!plain.busy() && !hooked.busy() && !board.busy());
    QCOMPARE(board.cancelAll(), 0);  // nothing left: the hook is not called again
    QCOMPARE(hook_calls, 1);
    gate->release();
  }

  void aTrackerThatGoesWhileBusyNoLongerHoldsTheBoard() {
    JobBoard board;
    QSignalSpy busy(&board, &JobBoard::busyChanged);
    auto gate = std::make_shared<Gate>();
    {
      auto* parent = new QObject;
      auto* jobs = new JobTracker(parent);
      board.addChildrenOf(parent);
      QCOMPARE(board.trackers(), 1);
      startGated(*jobs, "panel job", gate);
      QVERIFY(board.busy());
      delete parent;  // the tracker's destructor cancels and waits for its job
    }
    QCOMPARE(board.trackers(), 0);
    QVERIFY(!board.busy());
    QCOMPARE(busy.count(), 2);
    gate->release();
  }

  void aWindowClosedWhileAJobRunsSignalsNothingIntoItself() {
    // CI's UBSan stage caught the board's busyChanged reaching MainWindow::onBusy from ~QWidget,
    // when the window was already no MainWindow: a solve still ran when a test closed it (the
    // controller's trackers go before the board does; a trace panel's after it).
    QTemporaryDir dir;
    std::unique_ptr<Settings> settings;
    auto window = openTestWindow(dir, settings);
    QTRY_VERIFY_WITH_TIMEOUT(window->controller().snapshot() && !window->jobBoard().busy(),
                             kTimeoutMs);
    auto gate = std::make_shared<Gate>();
    startGated(window->controller().sweepJobs(), "Sweeping slice sizes", gate);
    QVERIFY(window->jobBoard().busy());
    // Fails under the sanitizer stage (UBSan's vptr check) if any child still reaches a slot.
    window.reset();
    gate->release();
    QVERIFY(JobTracker::workerPool().waitForDone(kTimeoutMs));
  }

  void escapeCancelsATraceLoadAndTheStatusBarShowsIt() {
    QTemporaryDir dir;
    std::unique_ptr<Settings> settings;
    auto window = openTestWindow(dir, settings);
    ExplorerController& c = window->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy() && !window->jobBoard().busy(), kTimeoutMs);
    // Every tracker of the window is on the board: the controller's four and the trace jobs.
    TraceWorkspace* ws = window->traceWorkspace();
    QVERIFY(window->jobBoard().trackers() >= 10);
    QToolButton* cancel = nullptr;
    for (QToolButton* b : window->statusBar()->findChildren<QToolButton*>())
      if (b->text() == QStringLiteral("Cancel")) cancel = b;
    QVERIFY(cancel);
    QVERIFY(!cancel->isVisible());

    // The load's result is delivered on this thread, so the job is still running until the
    // event loop runs again, however fast the worker is.
    ws->openTraces({QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/step_before.json")});
    QVERIFY(ws->loadJobs().busy());
    QVERIFY(window->jobBoard().busy());
    QVERIFY(cancel->isVisible());
    QVERIFY(cancel->toolTip().contains(ws->loadJobs().currentName()));
    window->ganttView()->setFocus();
    QTest::keyClick(window->ganttView(), Qt::Key_Escape);
    QVERIFY(!ws->loadJobs().busy());
    QVERIFY(!window->jobBoard().busy());
    QVERIFY(!cancel->isVisible());
    // Whatever the cancelled load still posts is dropped: no trace appears.
    QVERIFY(JobTracker::workerPool().waitForDone(kTimeoutMs));
    QVERIFY(JobTracker::interactivePool().waitForDone(kTimeoutMs));
    QCoreApplication::processEvents();
    QCOMPARE(ws->viewA()->timeline(), nullptr);
  }
};

QTEST_MAIN(TestJobsBoard)
#include "test_jobs_board.moc"
