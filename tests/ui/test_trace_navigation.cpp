// The trace view's navigation, driven on real widgets: search with next / previous (Enter and
// Shift+Enter in the field, "k of N", the match list), the details of a clicked event (self time,
// children, the kernel its launch leads to, jumping to each), the summary of a Shift+dragged
// range, the statistics of the whole trace, the track list, W/A/S/D and the A / B titles. The trace
// is written here, so every figure is known: times in µs on the CPU thread (pid 1 / tid 1):
//   step [0, 100) > fwd [10, 40) > mm [15, 25) > cudaLaunchKernel [16, 18) -> gemm on stream 7
//                                  mm [30, 35)
//                  bwd [50, 90) > mm [60, 80)
// and 30 more threads with one event each ("idle", the last one "tail"), so the last thread's lane
// sits far below the top.
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QtTest>

#include "jobs/job_tracker.h"
#include "painter/gantt_layout.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_scroll_area.h"
#include "trace/trace_search.h"
#include "trace/trace_tables.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

QString x(const char* name, const char* cat, int tid, double ts, double dur, int pid = 1) {
  return QStringLiteral(
             R"({"ph": "X", "name": "%1", "cat": "%2", "pid": %3, "tid": %4, "ts": %5, "dur": %6},)")
      .arg(QLatin1String(name), QLatin1String(cat))
      .arg(pid)
      .arg(tid)
      .arg(ts)
      .arg(dur);
}

QString write_trace(const QTemporaryDir& dir, const QString& name, int idle_threads = 30) {
  QString json = QStringLiteral(R"({"traceEvents": [)");
  json += x("step", "user_annotation", 1, 0, 100);
  json += x("fwd", "cpu_op", 1, 10, 30);
  json += x("mm", "cpu_op", 1, 15, 10);
  json += x("cudaLaunchKernel", "cuda_runtime", 1, 16, 2);
  json += x("mm", "cpu_op", 1, 30, 5);
  json += x("bwd", "cpu_op", 1, 50, 40);
  json += x("mm", "cpu_op", 1, 60, 20);
  for (int t = 0; t < idle_threads; ++t)
    json += x(t + 1 == idle_threads ? "tail" : "idle", "cpu_op", 100 + t, 0, 100);
  json += x("gemm", "kernel", 7, 20, 5, 0);
  json += QStringLiteral(
      R"({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 1, "tid": 1, "ts": 16},)"
      R"({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 1, "bp": "e", "pid": 0, "tid": 7, "ts": 20}]})");
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(json.toUtf8());
  return path;
}

const TraceNameStat* row_named(const TraceStatsModel& m, const char* name) {
  for (int r = 0; r < m.rowCount(); ++r)
    if (m.row(r).name == name) return &m.row(r);
  return nullptr;
}

// Shift+drag from `a` to `b` with the button held, as a user selects an area.
void shift_drag(TraceView* v, QPoint a, QPoint b) {
  QTest::mousePress(v, Qt::LeftButton, Qt::ShiftModifier, a);
  QMouseEvent move(QEvent::MouseMove, QPointF(b), v->mapToGlobal(QPointF(b)), Qt::NoButton,
                   Qt::LeftButton, Qt::ShiftModifier);
  QCoreApplication::sendEvent(v, &move);
  QTest::mouseRelease(v, Qt::LeftButton, Qt::ShiftModifier, b);
}

QString duration(double us) {
  return trace_duration_text(us * 1e-6);
}

// With SLIMPACK_SCREENSHOT_DIR set, the user guide's picture of the details area.
void shoot(QWidget* w, const char* name) {
  const QByteArray dir = qgetenv("SLIMPACK_SCREENSHOT_DIR");
  if (!dir.isEmpty()) w->grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name));
}

// The centre of an event's bar, in the view's coordinates.
QPoint centre_of(TraceView* v, TraceEventRef ref) {
  const BarRef bar = v->barOf(ref);
  const GanttBar& b = v->model()->bar(bar);
  const GanttLayout l = v->currentLayout();
  const TimeScale s = v->timeScale();
  return {static_cast<int>((s.x_of(b.start) + s.x_of(b.end)) / 2),
          l.bar_band(bar.lane).center().y()};
}

class Fixture {
 public:
  explicit Fixture(int height = 700) {
    ws.resize(1200, height);
    ws.show();
  }
  bool open(const QStringList& paths, TraceWorkspace::Slot slot = TraceWorkspace::Slot::A) {
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);
    ws.openTraces(paths, slot);
    return loaded.wait(kTimeoutMs) || loaded.count() > 0;
  }
  // An event of run A by name and start (µs).
  TraceEventRef find(const char* name, double ts) const {
    const TraceTimeline& t = *ws.viewA()->timeline();
    const ImportedTrace& tr = *t.sources().front().trace;
    for (std::size_t l = 0; l < tr.lanes.size(); ++l)
      for (std::size_t i = 0; i < tr.lanes[l].events.size(); ++i) {
        const TraceEvent& e = tr.lanes[l].events[i];
        if (tr.names[static_cast<std::size_t>(e.name)] == name && e.start_us == ts)
          return {0, static_cast<std::int32_t>(l), static_cast<std::int32_t>(i)};
      }
    return {};
  }
  bool selected(const char* name, double ts) const {
    const TraceEventRef want = find(name, ts);
    const TraceEventRef got = ws.viewA()->selectedEvent();
    return want.valid() && got.lane == want.lane && got.index == want.index;
  }
  TraceWorkspace ws;
  QTemporaryDir dir;
};

}  // namespace

class TestTraceNavigation : public QObject {
  Q_OBJECT

 private slots:
  void searchStepsThroughMatches() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"))}));
    auto* field = f.ws.search().field();
    auto* count = f.ws.findChild<QLabel*>(QStringLiteral("traceMatchCount"));
    QVERIFY(count);
    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("MM"));  // case-insensitive: mm x 3 and gemm
    QCOMPARE(f.ws.search().matchCount(), 4);
    QCOMPARE(count->text(), QStringLiteral("0 of 4"));
    QCOMPARE(f.ws.details()->matches()->rowCount(), 4);
    QCOMPARE(f.ws.details()->matches()->index(1, TraceMatchModel::Name).data().toString(),
             QStringLiteral("gemm"));  // in time order
    QCOMPARE(f.ws.details()->matches()->index(1, TraceMatchModel::Start).data().toString(),
             duration(20));

    // Zoomed far from every match: Enter brings the first one (in time) into view.
    f.ws.viewA()->setViewRange(90e-6, 95e-6);
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(count->text(), QStringLiteral("1 of 4"));
    QVERIFY(f.selected("mm", 15));
    const TimeRange r = f.ws.viewA()->viewRange();
    QVERIFY2(r.t0 <= 15e-6 && r.t1 >= 25e-6, qPrintable(QString("%1 %2").arg(r.t0).arg(r.t1)));
    QVERIFY(f.ws.details()->eventText().contains(QStringLiteral("mm")));
    QTest::keyClick(field, Qt::Key_Return);
    QVERIFY(f.selected("gemm", 20));
    QTest::keyClick(field, Qt::Key_Return);
    QVERIFY(f.selected("mm", 30));
    QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);
    QVERIFY(f.selected("gemm", 20));
    QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);
    QVERIFY(f.selected("mm", 15));
    QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);  // wraps to the last
    QCOMPARE(count->text(), QStringLiteral("4 of 4"));
    QVERIFY(f.selected("mm", 60));
    auto* next = f.ws.findChild<QWidget*>(QStringLiteral("traceSearchNext"));
    QTest::mouseClick(next, Qt::LeftButton);  // wraps to the first
    QVERIFY(f.selected("mm", 15));

    // A click in the list of matches goes there.
    QTableView* table = f.ws.details()->matchTable();
    f.ws.details()->setCurrentIndex(TraceDetailsPanel::MatchesTab);
    const QRect cell = table->visualRect(table->model()->index(2, TraceMatchModel::Name));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QVERIFY(f.selected("mm", 30));
    QCOMPARE(count->text(), QStringLiteral("3 of 4"));
  }

  void matchBelowTheFoldIsScrolledIntoView() {
    Fixture f(420);  // 32 lanes at the smallest lane height do not fit
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"))}));
    auto* area = f.ws.findChild<TraceScrollArea*>(QStringLiteral("traceViewAScroll"));
    QVERIFY(area);
    QTRY_VERIFY(area->verticalScrollBar()->maximum() > 0);
    QCOMPARE(area->verticalScrollBar()->value(), 0);
    f.ws.search().find(QStringLiteral("tail"));
    f.ws.search().nextMatch();
    QVERIFY(f.selected("tail", 0));
    TraceView* v = f.ws.viewA();
    const QRect band = v->currentLayout().bar_band(v->barOf(v->selectedEvent()).lane);
    QTRY_VERIFY2(area->verticalScrollBar()->value() > 0,
                 qPrintable(QString("band %1..%2 view %3 max %4")
                                .arg(band.top())
                                .arg(band.bottom())
                                .arg(v->height())
                                .arg(area->verticalScrollBar()->maximum())));
    const QRect in_viewport(v->mapTo(area->viewport(), band.topLeft()), band.size());
    QVERIFY(area->viewport()->rect().contains(in_viewport));
  }

  void detailsOfAClickedEvent() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 0)}));
    TraceView* v = f.ws.viewA();
    QTest::mouseClick(v, Qt::LeftButton, {}, centre_of(v, f.find("fwd", 10)));
    QVERIFY(f.selected("fwd", 10));
    TraceDetailsPanel* d = f.ws.details();
    QCOMPARE(d->currentIndex(), int(TraceDetailsPanel::EventTab));
    const QString text = d->eventText();
    QVERIFY2(text.contains(QStringLiteral("cpu_op")) &&
                 text.contains(QStringLiteral("self time: ") + duration(15)) &&
                 text.contains(QStringLiteral("duration: ") + duration(30)),
             qPrintable(text));
    QCOMPARE(d->children()->count(), 2);
    QVERIFY(d->children()->item(0)->text().startsWith(QStringLiteral("mm")));
    // A child: clicked in the list, it is selected and described.
    QListWidget* children = d->children();
    QTest::mouseClick(children->viewport(), Qt::LeftButton, {},
                      children->visualItemRect(children->item(0)).center());
    QVERIFY(f.selected("mm", 15));
    QVERIFY(d->eventText().contains(QStringLiteral("self time: ") + duration(8)));
    // Its launch leads to the kernel on the GPU stream; the kernel back to the launch.
    QListWidget* links = d->links();
    QCOMPARE(links->count(), 1);
    QVERIFY2(links->item(0)->text().contains(QStringLiteral("gemm")) &&
                 links->item(0)->text().contains(QStringLiteral("ac2g")),
             qPrintable(links->item(0)->text()));
    QTest::mouseClick(links->viewport(), Qt::LeftButton, {},
                      links->visualItemRect(links->item(0)).center());
    QVERIFY(f.selected("gemm", 20));
    QCOMPARE(links->count(), 1);
    QVERIFY(links->item(0)->text().contains(QStringLiteral("cudaLaunchKernel")));
    QTest::mouseClick(links->viewport(), Qt::LeftButton, {},
                      links->visualItemRect(links->item(0)).center());
    QVERIFY(f.selected("cudaLaunchKernel", 16));
    QCOMPARE(d->argsText(), QStringLiteral("(none)"));
    // The flow is drawn: an arrow from the launch (16 µs) down to the kernel's start (20 µs).
    QCOMPARE(v->selectedLinks().size(), std::size_t{1});
    const TimeScale s = v->timeScale();
    const GanttLayout l = v->currentLayout();
    const int y0 = l.bar_band(v->barOf(f.find("cudaLaunchKernel", 16)).lane).center().y();
    const int y1 = l.bar_band(v->barOf(f.find("gemm", 20)).lane).center().y();
    const QPoint mid(static_cast<int>((s.x_of(16e-6) + s.x_of(20e-6)) / 2), (y0 + y1) / 2);
    QVERIFY2(qGray(v->grab().toImage().pixel(mid)) < 100, "the arrow's middle is drawn dark");
    shoot(&f.ws, "trace-details.png");
    v->selectEvent(f.find("bwd", 50));  // no flow: no arrow
    QVERIFY(v->selectedLinks().empty());
    QVERIFY(qGray(v->grab().toImage().pixel(mid)) > 100);
  }

  void shiftDragSummarisesTheRange() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 0)}));
    TraceView* v = f.ws.viewA();
    const GanttLayout l = v->currentLayout();
    const TimeScale s = v->timeScale();
    const int y = l.lane_top[1] + l.lane_height / 2;  // the CPU thread (row 0: the GPU stream)
    const QPoint from(static_cast<int>(s.x_of(45e-6)), y);
    const QPoint to(static_cast<int>(s.x_of(99e-6)), y);
    shift_drag(v, from, to);
    TraceDetailsPanel* d = f.ws.details();
    QCOMPARE(d->currentIndex(), int(TraceDetailsPanel::SelectionTab));
    QTRY_VERIFY_WITH_TIMEOUT(!d->busy() && d->selectionStats()->rowCount() > 0, kTimeoutMs);
    // step, bwd and mm [60, 80) overlap the range; fwd and the first two mm ended before it.
    const TraceStatsModel& m = *d->selectionStats();
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(row_named(m, "mm")->count, 1);
    QCOMPARE(row_named(m, "mm")->total_us, 20.0);
    QCOMPARE(row_named(m, "bwd")->self_us, 20.0);
    QVERIFY(!row_named(m, "fwd"));
    // Sortable: a click on the "Name" header sorts by name, A to Z.
    QTableView* t = d->selectionTable();
    QHeaderView* h = t->horizontalHeader();
    QTest::mouseClick(h->viewport(), Qt::LeftButton, {},
                      QPoint(h->sectionViewportPosition(TraceStatsModel::Name) + 5, 5));
    QCOMPARE(m.index(0, TraceStatsModel::Name).data().toString(), QStringLiteral("bwd"));
    // Escape clears the range and the summary.
    v->setFocus();
    QTest::keyClick(v, Qt::Key_Escape);
    QCOMPARE(m.rowCount(), 0);
  }

  void statisticsOfTheWholeTrace() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 0)}));
    TraceDetailsPanel* d = f.ws.details();
    d->setCurrentIndex(TraceDetailsPanel::StatisticsTab);
    QTRY_VERIFY_WITH_TIMEOUT(!d->busy() && d->traceStats()->rowCount() == 6, kTimeoutMs);
    const TraceStatsModel& m = *d->traceStats();
    QCOMPARE(m.index(0, TraceStatsModel::Name).data().toString(), QStringLiteral("step"));
    const TraceNameStat* mm = row_named(m, "mm");
    QCOMPARE(mm->count, 3);
    QCOMPARE(mm->total_us, 35.0);
    QCOMPARE(mm->self_us, 33.0);
    QCOMPARE(mm->max_us, 20.0);
    QCOMPARE(m.index(0, TraceStatsModel::Total).data().toString(), duration(100));
    // By self time: mm (33 µs) leads step (30 µs).
    d->statsTable()->sortByColumn(TraceStatsModel::Self, Qt::DescendingOrder);
    QCOMPARE(m.index(0, TraceStatsModel::Name).data().toString(), QStringLiteral("mm"));
    QCOMPARE(m.index(1, TraceStatsModel::Name).data().toString(), QStringLiteral("step"));
    // A click on a row marks exactly that name's events (not gemm's) for Enter to step through.
    QTableView* t = d->statsTable();
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualRect(m.index(0, 0)).center());
    QCOMPARE(f.ws.search().matchCount(), 3);
    QCOMPARE(f.ws.viewA()->marked().size(), std::size_t{3});
    f.ws.search().nextMatch();
    QVERIFY(f.selected("mm", 15));
  }

  void wasdZoomAndPan() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 0)}));
    TraceView* v = f.ws.viewA();
    v->setViewRange(0.0, 100e-6);
    v->setFocus();
    QTest::keyClick(v, Qt::Key_W);  // around the centre: the mouse is not over the view
    TimeRange r = v->viewRange();
    QVERIFY(qAbs(r.span() - 80e-6) < 1e-9);
    QVERIFY(qAbs((r.t0 + r.t1) / 2 - 50e-6) < 1e-9);
    QTest::keyClick(v, Qt::Key_S);
    QVERIFY(qAbs(v->viewRange().span() - 100e-6) < 1e-9);
    QTest::keyClick(v, Qt::Key_D);
    r = v->viewRange();
    QVERIFY(qAbs(r.t0 - 10e-6) < 1e-9 && qAbs(r.t1 - 110e-6) < 1e-9);
    QTest::keyClick(v, Qt::Key_A);
    QTest::keyClick(v, Qt::Key_A);
    QVERIFY(qAbs(v->viewRange().t0 + 10e-6) < 1e-9);
  }

  void trackListFiltersFoldsAndPins() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 3)}));
    TraceView* v = f.ws.viewA();
    // CPU thread 1 (4 rows deep), threads 100-102 (one row each), the GPU stream.
    QCOMPARE(v->model()->lane_count(), 8);
    auto* filter = f.ws.findChild<QLineEdit*>(QStringLiteral("traceTrackFilter"));
    QTest::keyClicks(filter, QStringLiteral("TID 10"));
    QCOMPARE(v->model()->lane_count(), 3);
    filter->clear();
    QCOMPARE(v->model()->lane_count(), 8);
    QTest::mouseClick(f.ws.findChild<QWidget*>(QStringLiteral("traceCollapseAll")), Qt::LeftButton);
    QCOMPARE(v->model()->lane_count(), 2);  // one row per process
    QCOMPARE(int(v->collapsedGroups().size()), 2);
    QTest::mouseClick(f.ws.findChild<QWidget*>(QStringLiteral("traceExpandAll")), Qt::LeftButton);
    QCOMPARE(v->model()->lane_count(), 8);
    // The last row's group pinned from its label's context menu: it comes first.
    const int last = v->model()->lane_count() - 1;
    const int group = v->model()->lane(last).replica;
    const GanttLayout l = v->currentLayout();
    const QPoint at(l.labels.left() + 5, l.lane_top[last] + l.lane_height / 2);
    QContextMenuEvent menu_event(QContextMenuEvent::Mouse, at, v->mapToGlobal(at));
    QCoreApplication::sendEvent(v, &menu_event);
    auto* menu = v->findChild<QMenu*>(QStringLiteral("traceTrackMenu"));
    QVERIFY(menu);
    QAction* pin = nullptr;
    for (QAction* a : menu->actions())
      if (a->text() == QStringLiteral("Pin Group to Top")) pin = a;
    QVERIFY(pin);
    pin->trigger();
    menu->close();
    QCOMPARE(v->pinnedGroups(), std::vector<int>{group});
    QCOMPARE(v->model()->lane(0).replica, group);
    // A match in a pinned, filtered view is still found where it is drawn.
    f.ws.search().find(QStringLiteral("gemm"));
    f.ws.search().nextMatch();
    QVERIFY(f.selected("gemm", 20));
    const BarRef bar = v->barOf(v->selectedEvent());
    QVERIFY(bar.valid());
    QCOMPARE(v->model()->bar(bar).pack, v->timeline()->id_of(v->selectedEvent()));
  }

  void oneLanePinnedOnItsOwn() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 3)}));
    TraceView* v = f.ws.viewA();
    QCOMPARE(v->model()->lane_count(), 8);
    // Thread 102, the last of the CPU process's lanes (row 7, below the GPU stream's row and the
    // CPU thread's four), pinned from its label's menu.
    const int row = 7;
    QCOMPARE(v->rows()[row].lane >= 0, true);
    const auto lane = std::pair(int(v->rows()[row].source), int(v->rows()[row].lane));
    GanttLayout l = v->currentLayout();
    const QPoint at(l.labels.left() + 5, l.lane_top[row] + l.lane_height / 2);
    QContextMenuEvent menu_event(QContextMenuEvent::Mouse, at, v->mapToGlobal(at));
    QCoreApplication::sendEvent(v, &menu_event);
    auto* menu = v->findChild<QMenu*>(QStringLiteral("traceTrackMenu"));
    QVERIFY(menu);
    QCOMPARE(menu->actions().first()->text(), QStringLiteral("Pin Lane to Top"));
    menu->actions().first()->trigger();
    menu->close();
    QCOMPARE(v->pinnedLanes(), (std::vector<std::pair<int, int>>{lane}));
    // Only that lane moves: the same 8 rows, the pinned one first and marked, its group whole
    // below it and headed by its own label.
    QCOMPARE(v->model()->lane_count(), 8);
    QVERIFY(v->rows()[0].pinned_lane);
    QCOMPARE(std::pair(int(v->rows()[0].source), int(v->rows()[0].lane)), lane);
    const QString pinned_label = QString::fromStdString(v->model()->lane(0).label);
    QVERIFY2(pinned_label.startsWith(QStringLiteral("● ")) && pinned_label.endsWith("102"),
             qPrintable(pinned_label));
    QVERIFY(QString::fromStdString(v->model()->lane(1).label).startsWith(QStringLiteral("▾ ")));
    QCOMPARE(v->model()->lane(0).bars.size(), size_t(1));  // its one "idle" event
    // A click on the pinned lane's label folds nothing.
    l = v->currentLayout();
    QTest::mouseClick(v, Qt::LeftButton, {},
                      QPoint(l.labels.left() + 10, l.lane_top[0] + l.lane_height / 2));
    QVERIFY(v->collapsedGroups().empty());
    // Folding its group keeps the pinned lane above the folded row.
    v->setGroupCollapsed(v->rows()[1].group, true);
    QVERIFY(v->rows()[0].pinned_lane);
    QCOMPARE(v->rows()[1].lane, -1);
    v->setLanePinned(lane.first, lane.second, false);
    QVERIFY(v->pinnedLanes().empty());
    QVERIFY(!v->rows()[0].pinned_lane);
  }

  void shiftDragOverLanesSummarisesOnlyThem() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("hand.json"), 3)}));
    TraceView* v = f.ws.viewA();
    const GanttLayout l = v->currentLayout();
    const TimeScale s = v->timeScale();
    // Row 0 is the GPU stream, rows 1-4 the CPU thread's nesting, rows 5 and 6 threads 100 and
    // 101 ("idle" [0, 100) each): a drag from row 5 to row 6.
    QCOMPARE(v->rows()[5].depth, 0);
    const QPoint from(static_cast<int>(s.x_of(45e-6)), l.lane_top[5] + l.lane_height / 2);
    const QPoint to(static_cast<int>(s.x_of(99e-6)), l.lane_top[6] + l.lane_height / 2);
    shift_drag(v, from, to);
    QCOMPARE(v->selectionLanes().size(), size_t(2));
    TraceDetailsPanel* d = f.ws.details();
    QTRY_VERIFY_WITH_TIMEOUT(!d->busy() && d->selectionStats()->rowCount() > 0, kTimeoutMs);
    const TraceStatsModel& m = *d->selectionStats();
    QCOMPARE(m.rowCount(), 1);  // not the CPU thread's step, bwd and mm
    QVERIFY(d->findChild<QLabel*>(QStringLiteral("traceSelectionLabel"))
                ->text()
                .contains(QStringLiteral("on 2 lanes")));
    QCOMPARE(row_named(m, "idle")->count, 2);
    QCOMPARE(row_named(m, "idle")->total_us, 200.0);
    // The shaded area covers only those rows: inside the range, a pixel of row 6 is tinted and
    // one of row 1 (the CPU thread's step) is as without a selection.
    const int mid_x = (from.x() + to.x()) / 2;
    const QImage shot = v->grab().toImage();
    v->setSelection(std::nullopt);
    const QImage plain = v->grab().toImage();
    const int y6 = l.lane_top[6] + 1, y1 = l.lane_top[1] + 1;
    QVERIFY(shot.pixelColor(mid_x, y6) != plain.pixelColor(mid_x, y6));
    QCOMPARE(shot.pixelColor(mid_x, y1), plain.pixelColor(mid_x, y1));
    // A drag from the time axis: every lane.
    const QPoint axis_from(from.x(), l.axis.center().y());
    shift_drag(v, axis_from, QPoint(to.x(), l.axis.center().y()));
    QVERIFY(v->selection().has_value());
    QVERIFY(v->selectionLanes().empty());
    QTRY_VERIFY_WITH_TIMEOUT(!d->busy(), kTimeoutMs);
    // step, bwd and mm of the CPU thread, "idle" twice and "tail" (thread 102); not gemm.
    QCOMPARE(m.rowCount(), 5);
    QCOMPARE(row_named(m, "idle")->count, 2);
    QCOMPARE(row_named(m, "tail")->count, 1);
    QVERIFY(!row_named(m, "gemm"));
  }

  void runsAreTitledAAndB() {
    Fixture f;
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("before.json"), 0)}));
    auto* a = f.ws.findChild<QLabel*>(QStringLiteral("traceTitleA"));
    auto* b = f.ws.findChild<QLabel*>(QStringLiteral("traceTitleB"));
    QVERIFY(a && b);
    QCOMPARE(a->text(), QStringLiteral("A: before.json"));
    QVERIFY(a->isVisible());
    QVERIFY(!b->isVisible());
    QVERIFY(f.open({write_trace(f.dir, QStringLiteral("after.json"), 0)}, TraceWorkspace::Slot::B));
    QCOMPARE(b->text(), QStringLiteral("B: after.json"));
    QVERIFY(b->isVisible());
    // The title sits right over its timeline.
    QVERIFY(b->mapTo(&f.ws, QPoint(0, b->height())).y() <=
            f.ws.viewB()->mapTo(&f.ws, QPoint(0, 0)).y());
    QTRY_VERIFY_WITH_TIMEOUT(!f.ws.busy(), kTimeoutMs);
  }
};

QTEST_MAIN(TestTraceNavigation)
#include "test_trace_navigation.moc"
