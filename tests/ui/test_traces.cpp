// The Traces tab: opening one and several profiler traces through the main window (the open path,
// drag and drop), a bad trace keeping the session, the compare diff table (model tester, sort,
// category filter, fold digits) and row clicks marking events in both timelines.
// With SLIMPACK_SCREENSHOT_DIR set it also writes the user guide's screenshots there.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMimeData>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include "app/session_file.h"
#include "gantt/gantt_view.h"
#include "jobs/job_tracker.h"
#include "render/trace_timeline.h"
#include "trace/chrome_trace.h"
#include "trace/sim_check_model.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_rules_dialog.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/screenshot.h"
#include "window/settings.h"
#include "window/trace_hooks.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

QString sample(const char* name) {
  return QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/") + QString::fromLatin1(name);
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(text);
  return path;
}

void dropFiles(QWidget* target, const QStringList& paths) {
  auto* mime = new QMimeData;
  QList<QUrl> urls;
  for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
  mime->setUrls(urls);
  // As a real drag does: the drop only reaches a widget that accepted the drag entering it.
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &enter);
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &drop);
  delete mime;
}

int rowOf(const TraceDiffModel& m, const QString& name) {
  for (int r = 0; r < m.rowCount(); ++r)
    if (m.index(r, TraceDiffModel::Name).data().toString() == name) return r;
  return -1;
}

}  // namespace

class TestTraces : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

  TraceWorkspace& ws() { return *window_->traceWorkspace(); }

  void waitLoaded(QSignalSpy& spy, int count) {
    QTRY_COMPARE_WITH_TIMEOUT(spy.count(), count, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().loadJobs().busy(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diffJobs().busy(), kTimeoutMs);
  }

  void shoot(QWidget* w, const char* name) {
    const QByteArray dir = qgetenv("SLIMPACK_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QTest::qWait(50);
    QVERIFY(w->grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name)));
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // calibrated profiles go to a test folder
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->resize(1400, 900);
    window_->show();
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().snapshot() != nullptr, kTimeoutMs);
  }
  void cleanupTestCase() { window_.reset(); }
  void openFileTakesATrace() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    window_->openFile(sample("kineto_small.json.gz"));
    waitLoaded(loaded, 1);
    TraceView* v = ws().viewA();
    QVERIFY(v->model() && v->timeline());
    QCOMPARE(v->timeline()->sources().size(), std::size_t{1});
    QCOMPARE(v->timeline()->sources()[0].label, std::string("kineto_small.json.gz"));
    QVERIFY(v->model()->lane_count() >= 3);  // CPU thread(s) with depth rows and GPU streams
    QVERIFY(v->model()->bar_count() > 0);
    QVERIFY(v->isVisible());  // the Traces tab came to the front
    QVERIFY(!ws().comparing());
  }

  void droppedTracesLoadAsTheRanksOfOneRun() {
    // Two files dropped together: one run of two ranks (rank from the file name here).
    const QByteArray one =
        R"([{"ph": "X", "name": "gemm", "pid": 1, "tid": 1, "ts": 10, "dur": 5}])";
    const QByteArray two =
        R"([{"ph": "X", "name": "gemm", "pid": 1, "tid": 1, "ts": 12, "dur": 7}])";
    const QString r1 = writeFile(dir_, "job_rank1.json", two);
    const QString r0 = writeFile(dir_, "job_rank0.json", one);
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    dropFiles(window_.get(), {r1, r0});
    waitLoaded(loaded, 1);
    const auto& tl = *ws().viewA()->timeline();
    QCOMPARE(tl.sources().size(), std::size_t{2});
    QCOMPARE(tl.sources()[0].rank, 0);
    QCOMPARE(tl.sources()[1].rank, 1);
    QCOMPARE(QString::fromStdString(tl.groups()[1].label), QStringLiteral("rank 1 · pid 1"));
    const GanttModel& m = *ws().viewA()->model();
    QCOMPARE(m.lane_count(), 2);
    QVERIFY(qAbs(m.lane(1).bars[0].start - 2e-6) < 1e-12);  // one clock for the run
  }

  void badTraceShowsErrorAndKeepsWhatIsOpen() {
    const auto before = ws().viewA()->model();
    const auto snapshot = window_->controller().snapshot();
    const QString bad =
        writeFile(dir_, "broken.pt.trace.json", R"({"traceEvents": [{"ph": "X", "ts": 1,)");
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    window_->openFile(bad);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    QVERIFY2(errors.at(0).at(0).toString().contains("broken.pt.trace.json"),
             qPrintable(errors.at(0).at(0).toString()));
    QVERIFY2(errors.at(0).at(1).toString().contains("broken.pt.trace.json"),
             qPrintable(errors.at(0).at(1).toString()));
    QVERIFY(ws().viewA()->model() == before);
    QVERIFY(window_->controller().snapshot() == snapshot);
  }

  void aPlanIsNotTakenForATrace() {
    QVERIFY(!ws().offerFile(QStringLiteral(SLIMPACK_SAMPLES_DIR "/lengths/chat_sft_lengths.csv")));
    const QString plan = writeFile(dir_, "p.json", R"({"format":"slimpack-plan","stages":2})");
    QVERIFY(!ws().offerFile(plan));
  }

  void searchMarksMatchingEvents() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({sample("step_before.json")});
    waitLoaded(loaded, 1);
    QCOMPARE(ws().search(QStringLiteral("LINEAR")), 2);
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{2});
    QVERIFY(ws().statusText().contains("2 matches"));
    QCOMPARE(ws().search(QString()), 0);
    QVERIFY(ws().viewA()->marked().empty());
  }

  void compareShowsBothRunsAndTheDiffTable() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({sample("step_before.json")});
    waitLoaded(loaded, 1);
    ws().openTraces({sample("step_after.json")}, TraceWorkspace::Slot::B);
    waitLoaded(loaded, 2);
    QVERIFY(ws().comparing());
    QVERIFY(ws().viewB()->isVisible() && ws().diffTable()->isVisible());
    TraceDiffModel& m = *ws().diffModel();
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Exact names: ProfilerStep#1 removed, #2 added, and the five other names.
    QCOMPARE(m.rowCount(), 7);
    const int linear = rowOf(m, "aten::linear");
    QVERIFY(linear >= 0);
    QCOMPARE(m.index(linear, TraceDiffModel::CountA).data(TraceDiffModel::RawRole).toLongLong(), 2);
    QCOMPARE(m.index(linear, TraceDiffModel::CountB).data(TraceDiffModel::RawRole).toLongLong(), 3);
    QCOMPARE(m.index(linear, TraceDiffModel::Delta).data(TraceDiffModel::RawRole).toDouble(), 2.0);
    QCOMPARE(m.index(linear, TraceDiffModel::Status).data().toString(),
             QStringLiteral("unchanged"));
    // One unit per column (the largest total is 1 ms): 100 us reads 0.100 ms, never "ns".
    QCOMPARE(m.index(linear, TraceDiffModel::TotalA).data().toString(), QStringLiteral("0.100 ms"));
    QCOMPARE(m.index(linear, TraceDiffModel::Delta).data().toString(), QStringLiteral("+0.002 ms"));
    const int fwd = rowOf(m, "flash_fwd");
    QCOMPARE(m.index(fwd, TraceDiffModel::Delta).data(TraceDiffModel::RawRole).toDouble(), 60.0);
    QCOMPARE(m.index(fwd, TraceDiffModel::Status).data().toString(), QStringLiteral("longer"));

    // Sort by delta, ascending: the removed all-reduce (-300 us) first, the added bwd last-but-one.
    m.sort(TraceDiffModel::Delta, Qt::AscendingOrder);
    QCOMPARE(m.index(0, TraceDiffModel::Name).data().toString(), QStringLiteral("ProfilerStep#1"));
    QCOMPARE(m.index(0, TraceDiffModel::Delta).data(TraceDiffModel::RawRole).toDouble(), -1000.0);
    QCOMPARE(m.index(6, TraceDiffModel::Name).data().toString(), QStringLiteral("ProfilerStep#2"));
    m.sort(TraceDiffModel::Name, Qt::DescendingOrder);
    QCOMPARE(m.index(0, TraceDiffModel::Name).data().toString(),
             QStringLiteral("ncclKernel_AllReduce"));

    // Fold digits: the two steps are one name, 1000 us in A against 900 us in B.
    m.setFoldDigits(true);
    QCOMPARE(m.rowCount(), 6);
    const int step = rowOf(m, "ProfilerStep#N");
    QVERIFY(step >= 0);
    QCOMPARE(m.index(step, TraceDiffModel::Delta).data(TraceDiffModel::RawRole).toDouble(), -100.0);
    QCOMPARE(m.index(step, TraceDiffModel::Status).data().toString(), QStringLiteral("shorter"));
    // The sort survives the recomputation.
    QCOMPARE(m.index(0, TraceDiffModel::Name).data().toString(),
             QStringLiteral("ncclKernel_AllReduce"));

    // Category filter: kernels only.
    QVERIFY(m.categories().contains("kernel") && m.categories().contains("cpu_op"));
    m.setCategory(QStringLiteral("kernel"));
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(rowOf(m, "aten::linear"), -1);
    m.setCategory(QString());
    m.setFoldDigits(false);
    QCOMPARE(m.rowCount(), 7);
  }

  void clickingARowMarksItsEventsInBothTimelines() {
    TraceDiffModel& m = *ws().diffModel();
    const int linear = rowOf(m, "aten::linear");
    QTableView* table = ws().diffTable();
    const QRect cell = table->visualRect(m.index(linear, TraceDiffModel::Name));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{2});
    QCOMPARE(ws().viewB()->marked().size(), std::size_t{3});
    for (TraceView* v : {ws().viewA(), ws().viewB()})
      for (const BarRef& r : v->marked())
        QCOMPARE(v->timeline()->name(v->timeline()->locate(v->model()->bar(r).pack)),
                 std::string("aten::linear"));
    QVERIFY(ws().statusText().contains("2 events in A, 3 in B"));
    // Folded names mark every step.
    m.setFoldDigits(true);
    ws().highlightDiffRow(rowOf(m, "ProfilerStep#N"));
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{1});
    QCOMPARE(ws().viewB()->marked().size(), std::size_t{1});
    m.setFoldDigits(false);
  }

  // A name in two categories: with the table filtered to kernels, its row marks the kernels only.
  void clickingAFilteredRowMarksOnlyThatCategory() {
    const QByteArray text =
        R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "gemm", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 10, "dur": 20},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 40, "dur": 20}]})";
    const QString a = writeFile(dir_, "gemm_a.json", text);
    const QString b = writeFile(dir_, "gemm_b.json", text);
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({a});
    waitLoaded(loaded, 1);
    ws().openTraces({b}, TraceWorkspace::Slot::B);
    waitLoaded(loaded, 2);
    TraceDiffModel& m = *ws().diffModel();
    ws().highlightDiffRow(rowOf(m, "gemm"));
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{3});
    // Through the tab's filter (a job), as the category box does.
    ws().requestDiff(QStringLiteral("kernel"), false);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diffJobs().busy(), kTimeoutMs);
    QCOMPARE(m.category(), QStringLiteral("kernel"));
    QCOMPARE(m.index(rowOf(m, "gemm"), TraceDiffModel::CountA)
                 .data(TraceDiffModel::RawRole)
                 .toLongLong(),
             2);
    ws().highlightDiffRow(rowOf(m, "gemm"));
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{2});
    QCOMPARE(ws().viewB()->marked().size(), std::size_t{2});
    ws().requestDiff(QString(), false);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diffJobs().busy(), kTimeoutMs);
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{2});  // marks stay until the next click
    // Back to the two step traces the next tests expect.
    ws().openTraces({sample("step_before.json")});
    waitLoaded(loaded, 3);
    ws().openTraces({sample("step_after.json")}, TraceWorkspace::Slot::B);
    waitLoaded(loaded, 4);
  }

  void alignmentAndOneTimeAxis() {
    // At the first event both start at zero; B's first event is at 2000 us in its file.
    for (TraceView* v : {ws().viewA(), ws().viewB()}) {
      double first = 1.0;
      for (const auto& lane : v->model()->lanes()) first = std::min(first, lane.bars.front().start);
      QCOMPARE(first, 0.0);
    }
    QVERIFY(ws().setAlignment(TraceWorkspace::Align::NamedEvent, QStringLiteral("flash_fwd")));
    // flash_fwd starts at 100 us in A and 2100 us in B: both now read zero there.
    const auto flash = [](TraceView* v) {
      const auto hits = v->timeline()->find_name(*v->model(), "flash_fwd");
      return v->model()->bar(hits.front()).start;
    };
    QCOMPARE(flash(ws().viewA()), 0.0);
    QCOMPARE(flash(ws().viewB()), 0.0);
    QVERIFY(!ws().setAlignment(TraceWorkspace::Align::NamedEvent, QStringLiteral("nope")));
    // The menu's "Align at event…" / the table's "Align Both Runs at This Event": any name.
    QVERIFY(ws().alignAtEvent(QStringLiteral("ncclKernel_AllReduce")) == false);  // not in B
    QVERIFY(ws().statusText().contains(QStringLiteral("no event named")));
    QCOMPARE(flash(ws().viewA()), 0.0);  // unchanged
    auto* align = ws().findChild<QComboBox*>(QStringLiteral("traceAlign"));
    QVERIFY(align);
    QCOMPARE(align->itemText(align->count() - 1), QStringLiteral("Align at event…"));
    QVERIFY(ws().alignAtEvent(QStringLiteral("flash_fwd")));
    QCOMPARE(align->currentText(), QStringLiteral("Align at flash_fwd"));
    QCOMPARE(ws().diffTable()->actions().size(), 1);
    // Zoom in A: B follows.
    ws().viewA()->setViewRange(-50e-6, 150e-6);
    QCOMPARE(ws().viewB()->viewRange().t0, -50e-6);
    QCOMPARE(ws().viewB()->viewRange().t1, 150e-6);
    ws().setAlignment(TraceWorkspace::Align::FirstEvent);
    ws().viewA()->fitToWindow();
    ws().search(QStringLiteral("flash"));
    shoot(&ws(), "trace-compare.png");
    ws().search(QString());
  }

  void collapseSelectionAndTooltip() {
    TraceView* v = ws().viewA();
    const int rows = v->model()->lane_count();
    // The python3 group's first label folds the group: its thread's three depth rows become one.
    int head = 0;
    while (head < rows && v->model()->lane(head).label.find("python3") == std::string::npos) ++head;
    QVERIFY(head < rows);
    const int group = v->model()->lane(head).replica;
    const GanttLayout l = v->currentLayout();
    QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier,
                      QPoint(l.labels.left() + 10, l.lane_top[head] + l.lane_height / 2));
    QVERIFY(v->collapsedGroups().count(group));
    QCOMPARE(v->model()->lane_count(), rows - 2);
    QCOMPARE(QString::fromStdString(v->model()->lane(head).label),
             QStringLiteral("▸ rank 0 · python3 (1 lane)"));  // distributedInfo.rank
    v->setGroupCollapsed(group, false);
    QCOMPARE(v->model()->lane_count(), rows);
    // Shift+drag selects a range; its duration is shown.
    const GanttLayout l2 = v->currentLayout();
    const int y = l2.lane_top[0] + l2.lane_height / 2;
    QTest::mousePress(v, Qt::LeftButton, Qt::ShiftModifier, QPoint(l2.plot.left() + 100, y));
    QMouseEvent move(QEvent::MouseMove, QPointF(l2.plot.left() + 300, y),
                     v->mapToGlobal(QPointF(l2.plot.left() + 300, y)), Qt::NoButton, Qt::LeftButton,
                     Qt::ShiftModifier);
    QCoreApplication::sendEvent(v, &move);
    QTest::mouseRelease(v, Qt::LeftButton, Qt::ShiftModifier, QPoint(l2.plot.left() + 300, y));
    QVERIFY(v->selection().has_value());
    const double px = v->timeScale().time_per_px();
    QVERIFY(qAbs(v->selection()->span() - 200 * px) < 2 * px);
    // Tooltip of the step bar: name, category, duration.
    const QString tip = v->tooltipFor(BarRef{head, 0});
    QVERIFY2(tip.contains("ProfilerStep#1") && tip.contains("user_annotation") &&
                 tip.contains("1.00 ms"),
             qPrintable(tip));
  }

  // Measured, never asserted: with SLIMPACK_BIG_TRACE=FILE (tests/bench/make_nested_trace.py)
  // prints the parse time and the time from the end of parsing to the first painted timeline.
  void bigTraceTiming() {
    const QByteArray big = qgetenv("SLIMPACK_BIG_TRACE");
    if (big.isEmpty()) QSKIP("set SLIMPACK_BIG_TRACE to a large trace to measure");
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    QElapsedTimer paint;
    connect(&ws(), &TraceWorkspace::loaded, this, [&paint] { paint.start(); });
    ws().openTraces({QString::fromLocal8Bit(big)});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 120000);
    // loaded() comes after the snapshot was handed to the view (lastShowMs); the frame follows.
    ws().viewA()->repaint();
    const double gui_ms = ws().lastShowMs() + static_cast<double>(paint.nsecsElapsed()) / 1e6;
    const TraceRunView& run = ws().runA();
    qInfo(
        "big trace: %.1f MB, %lld events, %d rows; parse %.0f ms; timeline+snapshot %.0f ms "
        "(worker); GUI set+first paint %.1f ms (frame %.1f ms); parse end to painted %.0f ms",
        run.bytes / 1e6, static_cast<long long>(run.timeline->event_count()),
        ws().viewA()->model()->lane_count(), run.parse_seconds * 1e3, run.build_seconds * 1e3,
        gui_ms, ws().viewA()->lastFrameMs(), run.build_seconds * 1e3 + gui_ms);
    // Zoom in 50x, then pan in ten steps of a tenth of the view: the frames a user waits for.
    TraceView* v = ws().viewA();
    v->zoomBy(50.0, 0.0);
    v->repaint();
    const double first_zoomed = v->lastFrameMs();
    std::vector<double> frames;
    for (int i = 0; i < 10; ++i) {
      const TimeRange r = v->viewRange();
      v->setViewRange(r.t0 + r.span() * 0.1, r.t1 + r.span() * 0.1);
      v->repaint();
      frames.push_back(v->lastFrameMs());
    }
    std::sort(frames.begin(), frames.end());
    qInfo(
        "zoomed in 50x: first frame %.1f ms; panning: frame median %.1f ms, max %.1f ms "
        "(10 frames)",
        first_zoomed, frames[5], frames.back());
    // The diff table's recomputation (category filter, fold digits) on this trace against itself:
    // what the worker does, and what is left on the GUI thread (the model reset and re-sort).
    ws().openTraces({QString::fromLocal8Bit(big)}, TraceWorkspace::Slot::B);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diffJobs().busy(), 120000);
    auto a = merged_trace(*ws().viewA()->timeline());
    auto b = merged_trace(*ws().viewB()->timeline());
    for (const bool fold : {false, true}) {
      TraceCompareOptions options;
      options.fold_digits = fold;
      options.category = fold ? "" : "kernel";
      QElapsedTimer t;
      t.start();
      TraceDiffModel::Result r = TraceDiffModel::compute(a.get(), b.get(), options);
      const double worker_ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
      const auto rows = r.comparison.names.size();
      t.restart();
      ws().diffModel()->setResult(a, b, std::move(r));
      qInfo("diff recompute (%s): worker %.0f ms, GUI thread %.2f ms, %zu rows",
            fold ? "fold digits" : "category kernel", worker_ms,
            static_cast<double>(t.nsecsElapsed()) / 1e6, rows);
    }
  }

  // The current plan exported by the simulate --trace code path, opened in the Traces tab and
  // mapped with the built-in slimpack rules: every unit matches its simulated op exactly.
  void measuredAgainstSimulatedRoundTrip() {
    const SnapshotPtr snap = window_->controller().snapshot();
    QVERIFY(snap && snap->plan);
    const QString path = dir_.filePath("current-plan.trace.json");
    QVERIFY(write_chrome_trace(path.toStdString(), *snap->plan, snap->sim).ok());
    ws().setSimCheckVisible(true);
    SimCheckPanel* panel = ws().simCheck();
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    QVERIFY(!panel->setRuleSet(QStringLiteral("no-such-rules")));
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({path});
    waitLoaded(loaded, 1);
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    const TraceCheck& c = *panel->check();
    std::size_t ops = 0;  // F and B ops of the simulation: every one is a matched unit
    for (const auto& r : snap->sim.replicas)
      for (const auto& st : r.stages)
        for (const auto& op : st.ops)
          if (op.kind == OpKind::Forward) ++ops;
    ops *= 2;  // each forward pack has its backward
    QVERIFY(!c.units.empty());
    QVERIFY(c.units.size() <= ops);
    QCOMPARE(c.only_measured, std::int64_t{0});
    QCOMPARE(c.only_simulated, std::int64_t{0});
    QVERIFY2(c.mape < 1e-9, qPrintable(QString::number(c.mape)));
    QVERIFY(std::abs(c.makespan_error) < 1e-9);
    QVERIFY(std::abs(c.simulated_makespan_us - snap->sim.makespan * 1e6) < 1e-3);
    for (const UnitComparison& u : c.units) QVERIFY(std::abs(u.error) < 1e-9);
    // The table shows every unit; the simulated Gantt is the snapshot's, on A's time axis.
    SimCheckModel* model = panel->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), static_cast<int>(c.units.size()));
    QCOMPARE(model->index(0, SimCheckModel::Error).data().toString(), QStringLiteral("0.0 %"));
    GanttView* sim = panel->simulatedView();
    QVERIFY(sim->isVisible());
    QCOMPARE(sim->model(), snap->gantt);
    QCOMPARE(ws().viewA()->timeline()->origin_us(), *panel->unitsOriginUs());
    ws().viewA()->setViewRange(0.001, 0.002);
    QCOMPARE(sim->viewRange().t0, ws().viewA()->viewRange().t0);
    QCOMPARE(sim->viewRange().t1, ws().viewA()->viewRange().t1);
    QVERIFY(panel->summaryText().contains(QStringLiteral("MAPE 0.00 %")));
    QVERIFY(settings_->recentFiles().contains(path));  // opened traces are in Open Recent
    // Clicking a unit's row shows it in both Gantts: the range holds the measured and the
    // simulated op (the same times in this round trip), with a quarter of its length around it.
    const UnitComparison& first = model->unit(0);
    double op_start = -1.0, op_end = -1.0;
    for (const TimedOp& op : snap->sim.replicas[first.replica].stages[first.stage].ops)
      if (op.pack == first.pack && op.pass == first.pass && op.kind != OpKind::P2P &&
          op.kind != OpKind::DpSync && op.kind != OpKind::Optimizer)
        op_start = op_start < 0 ? op.start : op_start, op_end = op.end;
    const auto range = panel->unitRange(0);
    QVERIFY(range.has_value());
    QVERIFY(std::abs(range->t0 - op_start) < 1e-9 && std::abs(range->t1 - op_end) < 1e-9);
    QTest::mouseClick(panel->table()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      panel->table()->visualRect(model->index(0, 0)).center());
    QVERIFY(std::abs(sim->viewRange().t0 - (op_start - 0.25 * (op_end - op_start))) < 1e-9);
    QVERIFY(std::abs(ws().viewA()->viewRange().t1 - (op_end + 0.25 * (op_end - op_start))) < 1e-9);
    // One plot origin: one x is one time in both Gantts.
    QCOMPARE(sim->currentLayout().plot.left(), ws().viewA()->currentLayout().plot.left());
    ws().viewA()->setViewRange(0.0, snap->sim.makespan * 1.01);
    shoot(&ws(), "trace-vs-simulated.png");

    // Another rule set finds no unit in our export: one message, no check.
    QSignalSpy failed(panel, &SimCheckPanel::failed);
    QVERIFY(panel->setRuleSet(QStringLiteral("megatron")));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
    QVERIFY(!panel->check());
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
  }

  // An explicit-time plan runs in abstract units, exported as 1 unit = 1 ms: its simulated Gantt
  // is drawn in seconds so it shares the measured trace's axis.
  void explicitTimeSimulationIsScaledToSeconds() {
    SimResult r;
    r.time_unit = "units";
    r.makespan = 5.0;
    r.iteration_time = 6.0;
    r.tokens_per_second = 100.0;  // tokens per unit
    ReplicaResult rep;
    rep.makespan = 5.0;
    rep.finish = 6.0;
    StageResult st;
    st.ops.push_back(TimedOp{2.0, 5.0, 0, 0, 0, OpKind::Forward, Pass::Forward});
    st.busy = 3.0;
    st.memory.push_back({4.0, 1e9});
    rep.stages.push_back(st);
    r.replicas.push_back(rep);
    const SimResult s = simulation_in_seconds(r);
    QCOMPARE(s.time_unit, std::string("s"));
    QCOMPARE(s.replicas[0].stages[0].ops[0].start, 0.002);
    QCOMPARE(s.replicas[0].stages[0].ops[0].end, 0.005);
    QCOMPARE(s.replicas[0].stages[0].busy, 0.003);
    QCOMPARE(s.replicas[0].stages[0].memory[0].time, 0.004);
    QCOMPARE(s.replicas[0].stages[0].memory[0].bytes, 1e9);
    QCOMPARE(s.makespan, 0.005);
    QCOMPARE(s.replicas[0].finish, 0.006);
    QCOMPARE(s.tokens_per_second, 100000.0);  // per second
    r.time_unit = "s";
    QCOMPARE(simulation_in_seconds(r).makespan, 5.0);  // seconds stay as they are
  }

  // One forward unit measured twice as long as simulated: error (sim - meas) / meas = -50 %, it
  // is the worst unit, and MAPE is 50 % over the unit count.
  void oneSlowUnitIsTheWorst() {
    const SnapshotPtr snap = window_->controller().snapshot();
    QFile in(dir_.filePath("current-plan.trace.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray events = doc.value("traceEvents").toArray();
    double simulated_us = 0.0;
    for (qsizetype i = 0; i < events.size(); ++i) {
      QJsonObject e = events[i].toObject();
      if (e.value("name").toString() != QStringLiteral("F1") || e.value("ph") != "X") continue;
      simulated_us = e.value("dur").toDouble();
      e.insert("dur", 2.0 * simulated_us);
      events[i] = e;
      break;
    }
    QVERIFY(simulated_us > 0.0);
    doc.insert("traceEvents", events);
    const QString path = writeFile(dir_, "slow-unit.trace.json", QJsonDocument(doc).toJson());
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({path});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    const TraceCheck& c = *panel->check();
    QCOMPARE(c.units.front().pass, Pass::Forward);
    QCOMPARE(c.units.front().pack, 0);
    QVERIFY(std::abs(c.units.front().error + 0.5) < 1e-9);
    QVERIFY(std::abs(c.units[1].error) < 1e-9);
    QVERIFY(std::abs(c.mape - 0.5 / static_cast<double>(c.units.size())) < 1e-9);
    QCOMPARE(panel->model()->index(0, SimCheckModel::Error).data().toString(),
             QStringLiteral("-50.0 %"));
    QVERIFY(panel->summaryText().contains(QStringLiteral("worst: r0 s0 forward pack 1 (-50.0 %)")));
    Q_UNUSED(snap);
  }

  // Calibrate from Trace: a trace of this plan on a machine twice as slow in every unit is
  // fitted, the profile becomes the configuration's cost profile and the plan re-solves slower.
  void calibrateFromTraceAppliesTheProfile() {
    const SnapshotPtr before = window_->controller().snapshot();
    QFile in(dir_.filePath("current-plan.trace.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray events = doc.value("traceEvents").toArray();
    for (qsizetype i = 0; i < events.size(); ++i) {
      QJsonObject e = events[i].toObject();
      if (e.contains("ts")) e.insert("ts", 2.0 * e.value("ts").toDouble());
      if (e.contains("dur")) e.insert("dur", 2.0 * e.value("dur").toDouble());
      events[i] = e;
    }
    doc.insert("traceEvents", events);
    const QString path = writeFile(dir_, "slow-machine.trace.json", QJsonDocument(doc).toJson());
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({path});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    QVERIFY(std::abs(panel->check()->mape - 0.5) < 1e-6);  // every unit: sim = measured / 2

    QSignalSpy snapshots(&window_->controller(), &ExplorerController::snapshotChanged);
    emit ws().calibrateRequested(ws().viewA()->timeline());
    const QString profile = TraceHooks::calibratedProfilePath(path);
    QTRY_COMPARE_WITH_TIMEOUT(
        QString::fromStdString(window_->controller().config().cost_profile_file), profile,
        kTimeoutMs);
    QVERIFY(QFile::exists(profile));
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy(), kTimeoutMs);
    QVERIFY(ws().statusText().contains(QStringLiteral("Calibrated from")));
    const SnapshotPtr after = window_->controller().snapshot();
    qInfo("makespan before %.6f s, after calibration %.6f s", before->sim.makespan,
          after->sim.makespan);
    QVERIFY(after->sim.makespan > 1.5 * before->sim.makespan);
    // One undoable edit: Undo gives the previous cost profile back.
    window_->undoStack()->undo();
    QCOMPARE(window_->controller().config().cost_profile_file, before->config.cost_profile_file);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::abs(window_->controller().snapshot()->sim.makespan - before->sim.makespan) < 1e-9,
        kTimeoutMs);
  }

  // Saved in the session: run A's and run B's files, the rule set and the measured view; opening
  // the session opens them again.
  void sessionKeepsTheTraces() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({sample("step_before.json")});
    waitLoaded(loaded, 1);
    ws().openTraces({sample("step_after.json")}, TraceWorkspace::Slot::B);
    waitLoaded(loaded, 2);
    ws().setSimCheckVisible(true);
    const QString session = dir_.filePath("with-traces.slimpack");
    QVERIFY(window_->saveSession(session));
    QFile f(session);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    auto saved = session_from_json(text, "s");  // one reader for the whole session
    QVERIFY(saved.ok());
    const TraceSessionPart* part = &saved->traces;
    QCOMPARE(part->files, std::vector<std::string>{sample("step_before.json").toStdString()});
    QCOMPARE(part->compare_files,
             std::vector<std::string>{sample("step_after.json").toStdString()});
    QCOMPARE(saved->trace_options.rules, std::string("slimpack"));
    QVERIFY(part->measured_vs_simulated);

    ws().setSimCheckVisible(false);
    ws().openTraces({sample("kineto_small.json.gz")});
    waitLoaded(loaded, 3);
    QVERIFY(!ws().comparing());
    window_->openFile(session);
    waitLoaded(loaded, 5);  // run A, then run B
    QCOMPARE(ws().pathsA(), QStringList{sample("step_before.json")});
    QVERIFY(ws().comparing());
    QVERIFY(ws().simCheckVisible());
    ws().setSimCheckVisible(false);

    // A bad "traces" object names the field.
    const std::string head = R"({"format": "slimpack-session", "version": 1, )";
    const auto bad = session_from_json(
        head + R"("traces": {"files": ["a.json"], "rules": "nope"}})", "x.slimpack");
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.find("x.slimpack: $.traces.rules: unknown rule set 'nope'") !=
                 std::string::npos,
             bad.error().message.c_str());
    const auto files = session_from_json(head + R"("traces": {"files": [3]}})", "x.slimpack");
    QVERIFY(!files.ok() && files.error().message.find("$.traces.files[0]") != std::string::npos);
    QVERIFY(session_from_json(head + "\"view\": {}}", "x")->traces.files.empty());
  }

  // "Mapping Rules…": the dialog opens on the rules in use; accepted rules map the trace for
  // measured vs simulated, are listed as custom and saved in the session whole.
  void mappingRulesDialogSetsTheRules() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({dir_.filePath("current-plan.trace.json")});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    // Hidden, the panel maps nothing; shown, it catches up.
    QVERIFY(!ws().simCheckVisible());
    QVERIFY(!panel->check().has_value() && !panel->jobs().busy());
    ws().setSimCheckVisible(true);
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    // (The plan re-solved with the calibrated profile: this trace is no longer its exact twin.)
    const double slimpack_mape = panel->check()->mape;
    const std::size_t slimpack_units = panel->check()->units.size();
    QVERIFY(panel->setRuleSet(QStringLiteral("megatron")));
    UnitRuleSet mine;
    mine.name = "mine";
    mine.rules = {{"F([0-9]+)", "", "", Pass::Forward, 1, 1},
                  {"B([0-9]+)", "", "", Pass::Backward, 1, 1}};
    QString seen;
    QTimer::singleShot(0, this, [&] {
      auto* dialog = qobject_cast<TraceRulesDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      seen = QString::fromStdString(dialog->ruleSet().name);
      dialog->setRuleSet(mine);
      dialog->accept();
    });
    emit ws().mappingRulesRequested(ws().viewA()->timeline());
    QCOMPARE(seen, QStringLiteral("megatron"));  // it opened on the rules in use
    QCOMPARE(panel->ruleSet(), QStringLiteral("mine"));
    QVERIFY(panel->customRules());
    QVERIFY(ws().simCheckVisible());
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    // The same units as the built-in slimpack rules (these are them without the categories).
    QCOMPARE(panel->check()->units.size(), slimpack_units);
    QCOMPARE(panel->check()->mape, slimpack_mape);
    SessionFile with_rules;
    with_rules.trace_options = ws().traceOptions();
    with_rules.traces = ws().sessionPart();
    QCOMPARE(with_rules.trace_options.rules, std::string("mine"));
    QVERIFY(!with_rules.traces.rules_json.empty());
    auto back = session_from_json(session_to_json(with_rules), "s");
    QVERIFY(back.ok());
    QCOMPARE(back->trace_options.rules, std::string("mine"));
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    QVERIFY(!panel->customRules());
    ws().restoreSessionPart(back->trace_options, back->traces);
    QCOMPARE(panel->ruleSet(), QStringLiteral("mine"));
    waitLoaded(loaded, 2);
    // A custom set equal to a built-in one is that built-in.
    panel->setRules(*builtin_unit_rules("dualpipe"));
    QCOMPARE(panel->ruleSet(), QStringLiteral("dualpipe"));
    QVERIFY(!panel->customRules());
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    ws().setSimCheckVisible(false);
  }

  // A rank's trace that is no rank of the current plan (tests/cli/bad/runs: the CLI's message for
  // it): measured vs simulated says so, as `slimpack simulate --check-trace` does.
  void rankOutsideThePlanIsReported() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    const QString rank7 =
        QStringLiteral(SLIMPACK_SOURCE_DIR "/tests/cli/bad/runs/rank-outside-plan.json");
    ws().openTraces({rank7});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QSignalSpy failed(panel, &SimCheckPanel::failed);
    ws().setSimCheckVisible(true);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 1, kTimeoutMs);
    const QString message = failed.last().at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("rank-outside-plan.json: rank 7 (from its "
                                             "distributedInfo) is not a rank of the plan")),
             qPrintable(message));
    QVERIFY(panel->summaryText().contains(QStringLiteral("is not a rank of the plan")));
    ws().setSimCheckVisible(false);
  }

  // "Align ranks at event": run A is loaded again with each rank's clock at that event, as
  // --trace-align does; the option goes into the session.
  void ranksAlignAtAnEvent() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    const auto rank = [&](int r, int step_ts) {
      return writeFile(dir_, QStringLiteral("align_rank%1.json").arg(r),
                       QStringLiteral(R"({"traceEvents": [
        {"ph": "X", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": %1, "dur": 50},
        {"ph": "X", "name": "F1", "pid": 1, "tid": 1, "ts": %2, "dur": 10}]})")
                           .arg(step_ts)
                           .arg(step_ts + 5)
                           .toUtf8());
    };
    const QStringList files = {rank(0, 1000), rank(1, 4000)};
    ws().openTraces(files);
    waitLoaded(loaded, 1);
    QCOMPARE(ws().runA().run->ranks[1].shift_us, 0.0);
    ws().alignRanksAt(QStringLiteral("ProfilerStep#2"));
    waitLoaded(loaded, 2);
    QCOMPARE(ws().runA().run->ranks[0].shift_us, -1000.0);
    QCOMPARE(ws().runA().run->ranks[1].shift_us, -4000.0);
    QCOMPARE(ws().traceRequest().options.align_event, std::string("ProfilerStep#2"));
    QCOMPARE(ws().traceOptions().align_event, std::string("ProfilerStep#2"));
    ws().alignRanksAt({});
    waitLoaded(loaded, 3);
    QCOMPARE(ws().runA().run->ranks[1].shift_us, 0.0);
  }

  // --screenshot with traces on the command line: the picture waits for them to load.
  void screenshotWaitsForTraces() {
    ws().openTraces({sample("step_before.json")});
    QTRY_VERIFY_WITH_TIMEOUT(!ws().busy(), kTimeoutMs);
    window_->openFile(sample("kineto_small.json.gz"));  // offered: loads on the next turn
    QVERIFY(ws().busy());
    bool done = false, ok = false;
    QString message;
    ScreenshotOptions options;
    options.path = dir_.filePath("traces.png");
    options.view = QStringLiteral("traces");
    options.size = window_->size();
    takeScreenshotWhenReady(*window_, options, [&](bool good, const QString& m) {
      done = true;
      ok = good;
      message = m;
      // What the picture shows: the offered trace, loaded.
      QCOMPARE(ws().pathsA(), QStringList{sample("kineto_small.json.gz")});
      QVERIFY(!ws().busy());
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, kTimeoutMs);
    QVERIFY2(ok, qPrintable(message));
    QVERIFY(QFile::exists(options.path));
  }

  void screenshotOfOneTrace() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({sample("kineto_small.json.gz")});
    waitLoaded(loaded, 1);
    ws().search(QStringLiteral("aten::"));
    QVERIFY(!ws().statusText().contains(QStringLiteral("Calibrated")));  // that was another run
    window_->statusBar()->clearMessage();
    shoot(window_.get(), "trace-timeline.png");
    ws().search(QString());
  }
};

QTEST_MAIN(TestTraces)
#include "test_traces.moc"
