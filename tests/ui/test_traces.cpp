// The Traces tab: opening one and several profiler traces through the main window (the open path,
// drag and drop), a bad trace keeping the session, the compare diff table (model tester, sort,
// category filter, fold digits) and row clicks marking events in both timelines.
// With SLIMPACK_SCREENSHOT_DIR set it also writes the user guide's screenshots there.
#include <QAbstractButton>
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
#include "open_window.h"
#include "render/trace_timeline.h"
#include "trace/chrome_trace.h"
#include "trace/sim_check_model.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_diff_panel.h"
#include "trace/trace_rules_dialog.h"
#include "trace/trace_run_alignment.h"
#include "trace/trace_search.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "trace_test_support.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/screenshot.h"
#include "window/session_io.h"
#include "window/settings.h"
#include "window/trace_hooks.h"

using namespace slimpack;
using namespace slimpack::ui;

using namespace trace_test;

namespace {

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

class TestTraces : public trace_test::TraceWindowTest {
  Q_OBJECT
 private slots:
  void initTestCase() { openWindow(kTimeoutMs); }
  void cleanupTestCase() { window_.reset(); }
  void openFileTakesATrace() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    window_->session().openFile(sample("kineto_small.json.gz"));
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
    window_->session().openFile(bad);
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

  // At a window 1024 px wide (a small laptop, the docks beside the tab) the tab's first row of
  // buttons wraps instead of cutting their labels ("pen Traces." for "Open Traces…").
  void actionBarKeepsWholeLabelsAt1024() {
    const QSize before = window_->size();
    window_->showView(QStringLiteral("traces"));
    window_->resize(1024, 700);
    QTest::qWait(50);  // layout requests are posted events
    QCOMPARE(window_->width(), 1024);
    auto* bar = ws().findChild<QWidget*>(QStringLiteral("traceActionBar"));
    QVERIFY(bar && bar->isVisible());
    int shown = 0;
    for (const QAbstractButton* b : bar->findChildren<QAbstractButton*>()) {
      if (!b->isVisible()) continue;
      ++shown;
      const QString what = QStringLiteral("%1: %2 px of %3, right edge %4 in a bar %5 px wide")
                               .arg(b->text())
                               .arg(b->width())
                               .arg(b->sizeHint().width())
                               .arg(b->mapTo(bar, QPoint(b->width(), 0)).x())
                               .arg(bar->width());
      QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(what));
      QVERIFY2(b->mapTo(bar, QPoint(b->width(), 0)).x() <= bar->width(), qPrintable(what));
    }
    // Open, Compare, Measured vs Simulated, GPU Summary, the track list's three, the mapping's two.
    QCOMPARE(shown, 9);
    window_->resize(before);
  }

  void searchMarksMatchingEvents() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({sample("step_before.json")});
    waitLoaded(loaded, 1);
    QCOMPARE(ws().search().find(QStringLiteral("LINEAR")), 2);
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{2});
    QVERIFY(ws().statusText().contains("2 matches"));
    QCOMPARE(ws().search().find(QString()), 0);
    QVERIFY(ws().viewA()->marked().empty());
  }

  void compareShowsBothRunsAndTheDiffTable() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({sample("step_before.json")});
    waitLoaded(loaded, 1);
    ws().openTraces({sample("step_after.json")}, TraceWorkspace::Slot::B);
    waitLoaded(loaded, 2);
    QVERIFY(ws().comparing());
    QVERIFY(ws().viewB()->isVisible() && ws().diff().table()->isVisible());
    TraceDiffModel& m = *ws().diff().model();
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
    TraceDiffModel& m = *ws().diff().model();
    const int linear = rowOf(m, "aten::linear");
    QTableView* table = ws().diff().table();
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
    ws().diff().highlightRow(rowOf(m, "ProfilerStep#N"));
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
    TraceDiffModel& m = *ws().diff().model();
    ws().diff().highlightRow(rowOf(m, "gemm"));
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{3});
    // Through the tab's filter (a job), as the category box does.
    ws().diff().requestDiff(QStringLiteral("kernel"), false);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diff().jobs().busy(), kTimeoutMs);
    QCOMPARE(m.category(), QStringLiteral("kernel"));
    QCOMPARE(m.index(rowOf(m, "gemm"), TraceDiffModel::CountA)
                 .data(TraceDiffModel::RawRole)
                 .toLongLong(),
             2);
    ws().diff().highlightRow(rowOf(m, "gemm"));
    QCOMPARE(ws().viewA()->marked().size(), std::size_t{2});
    QCOMPARE(ws().viewB()->marked().size(), std::size_t{2});
    ws().diff().requestDiff(QString(), false);
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diff().jobs().busy(), kTimeoutMs);
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
      for (const auto& lane : v->model()->lanes())  // a counter track's row has no bars
        if (!lane.bars.empty()) first = std::min(first, lane.bars.front().start);
      QCOMPARE(first, 0.0);
    }
    QVERIFY(ws().alignment().setAlignment(TraceRunAlignment::Align::NamedEvent,
                                          QStringLiteral("flash_fwd")));
    // flash_fwd starts at 100 us in A and 2100 us in B: both now read zero there.
    const auto flash = [](TraceView* v) {
      const auto hits = v->timeline()->find_name(*v->model(), "flash_fwd");
      return v->model()->bar(hits.front()).start;
    };
    QCOMPARE(flash(ws().viewA()), 0.0);
    QCOMPARE(flash(ws().viewB()), 0.0);
    QVERIFY(!ws().alignment().setAlignment(TraceRunAlignment::Align::NamedEvent,
                                           QStringLiteral("nope")));
    // The menu's "Align at event…" / the table's "Align Both Runs at This Event": any name.
    QVERIFY(ws().alignment().alignAtEvent(QStringLiteral("ncclKernel_AllReduce")) ==
            false);  // not in B
    QVERIFY(ws().statusText().contains(QStringLiteral("no event named")));
    QCOMPARE(flash(ws().viewA()), 0.0);  // unchanged
    auto* align = ws().findChild<QComboBox*>(QStringLiteral("traceAlign"));
    QVERIFY(align);
    QCOMPARE(align->itemText(align->count() - 1), QStringLiteral("Align at event…"));
    QVERIFY(ws().alignment().alignAtEvent(QStringLiteral("flash_fwd")));
    QCOMPARE(align->currentText(), QStringLiteral("Align at flash_fwd"));
    QCOMPARE(ws().diff().table()->actions().size(), 1);
    // Zoom in A: B follows.
    ws().viewA()->setViewRange(-50e-6, 150e-6);
    QCOMPARE(ws().viewB()->viewRange().t0, -50e-6);
    QCOMPARE(ws().viewB()->viewRange().t1, 150e-6);
    ws().alignment().setAlignment(TraceRunAlignment::Align::FirstEvent);
    ws().viewA()->fitToWindow();
    ws().search().find(QStringLiteral("flash"));
    shoot(&ws(), "trace-compare.png");
    ws().search().find(QString());
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
    QTRY_VERIFY_WITH_TIMEOUT(!ws().diff().jobs().busy(), 120000);
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
      ws().diff().model()->setResult(a, b, std::move(r));
      qInfo("diff recompute (%s): worker %.0f ms, GUI thread %.2f ms, %zu rows",
            fold ? "fold digits" : "category kernel", worker_ms,
            static_cast<double>(t.nsecsElapsed()) / 1e6, rows);
    }
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
    QVERIFY(window_->session().saveSession(session));
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
    window_->session().openFile(session);
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
    ws().alignment().alignRanksAt(QStringLiteral("ProfilerStep#2"));
    waitLoaded(loaded, 2);
    QCOMPARE(ws().runA().run->ranks[0].shift_us, -1000.0);
    QCOMPARE(ws().runA().run->ranks[1].shift_us, -4000.0);
    QCOMPARE(ws().traceRequest().options.align_event, std::string("ProfilerStep#2"));
    QCOMPARE(ws().traceOptions().align_event, std::string("ProfilerStep#2"));
    ws().alignment().alignRanksAt({});
    waitLoaded(loaded, 3);
    QCOMPARE(ws().runA().run->ranks[1].shift_us, 0.0);
  }

  // --screenshot with traces on the command line: the picture waits for them to load.
  void screenshotWaitsForTraces() {
    ws().openTraces({sample("step_before.json")});
    QTRY_VERIFY_WITH_TIMEOUT(!ws().busy(), kTimeoutMs);
    window_->session().openFile(sample("kineto_small.json.gz"));  // offered: loads on the next turn
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
    ws().search().find(QStringLiteral("aten::"));
    QVERIFY(!ws().statusText().contains(QStringLiteral("Calibrated")));  // that was another run
    window_->statusBar()->clearMessage();
    shoot(window_.get(), "trace-timeline.png");
    ws().search().find(QString());
  }
};

QTEST_MAIN(TestTraces)
#include "test_traces.moc"
