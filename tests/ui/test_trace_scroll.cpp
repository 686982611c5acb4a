// The trace view scrolls vertically: with the two ranks of a run (and their stacks) in a window of
// ordinary height, every lane can be brought into view, the wheel over the lane labels scrolls,
// the wheel over the plot still zooms, and the second trace's scroller hides with its view.
#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <QtTest>

#include "trace/trace_scroll_area.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

// One rank of a run: `threads` CPU threads, each with a three-deep stack, so that two ranks have
// far more lanes than a short window shows at the smallest lane height.
QString write_rank(const QTemporaryDir& dir, int rank, int threads) {
  QString json =
      QStringLiteral(R"({"distributedInfo": {"rank": %1, "world_size": 2}, "traceEvents": [)")
          .arg(rank);
  for (int t = 0; t < threads; ++t)
    for (int depth = 0; depth < 3; ++depth)
      json +=
          QStringLiteral(
              R"({"ph": "X", "name": "op%1", "cat": "cpu_op", "pid": 1, "tid": %2, "ts": %3, "dur": %4},)")
              .arg(depth)
              .arg(t + 1)
              .arg(10 * depth)
              .arg(1000 - 20 * depth);
  json.chop(1);
  json += QStringLiteral("]}");
  const QString path = dir.filePath(QStringLiteral("rank%1.json").arg(rank));
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(json.toUtf8());
  return path;
}

// Sends a wheel notch to `w`; true when `w` took it. A synthesised wheel event does not travel to
// the parent as a real one does when ignored (QApplication::notify), so the caller passes it on.
bool wheel(QWidget* w, QPoint at, int dy) {
  QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, dy), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
  return e.isAccepted();
}

}  // namespace

class TestTraceScroll : public QObject {
  Q_OBJECT

 private slots:
  void twoRanksScrollIntoView() {
    TraceWorkspace ws;
    ws.resize(1000, 420);  // far too short for two ranks at the smallest lane height
    ws.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ws));
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);
    QTemporaryDir dir;
    ws.openTraces({write_rank(dir, 0, 10), write_rank(dir, 1, 10)});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!ws.busy(), kTimeoutMs);

    TraceView* view = ws.viewA();
    auto* area = qobject_cast<TraceScrollArea*>(view->parentWidget()->parentWidget());
    QVERIFY2(area, "view A sits in a TraceScrollArea");
    QCOMPARE(view->timeline()->sources().size(), std::size_t{2});
    const int needed = view->heightForAllLanes();
    QVERIFY(needed > area->viewport()->height());
    QCOMPARE(view->minimumHeight(), needed);
    QScrollBar* bar = area->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);

    // The last lane (rank 1's last row) is below the viewport at first, inside it at the bottom.
    const int last = view->model()->lane_count() - 1;
    auto last_lane_visible = [&] {
      const QRect r = view->currentLayout().lane_rect(last);
      const QRect in_viewport(view->mapTo(area->viewport(), r.topLeft()), r.size());
      return area->viewport()->rect().contains(in_viewport);
    };
    QVERIFY(!last_lane_visible());

    // The wheel over the lane labels scrolls; over the plot it zooms and does not scroll.
    const QPoint on_labels = view->currentLayout().labels.topLeft() + QPoint(5, 5);
    QVERIFY(!wheel(view, on_labels, -120));  // left to the scroll area, as a real wheel is
    wheel(area->viewport(), view->mapTo(area->viewport(), on_labels), -120);
    QVERIFY(bar->value() > 0);
    const int scrolled = bar->value();
    const double span = view->timeScale().range().span();
    const QPoint on_plot = view->currentLayout().plot.center();
    QVERIFY(wheel(view, QPoint(on_plot.x(), on_labels.y() + scrolled), 120));
    QCOMPARE(bar->value(), scrolled);
    QVERIFY(view->timeScale().range().span() < span);

    bar->setValue(bar->maximum());
    QVERIFY(last_lane_visible());
  }

  void secondScrollerFollowsItsView() {
    TraceWorkspace ws;
    ws.resize(1000, 600);
    ws.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ws));
    auto* b = qobject_cast<TraceScrollArea*>(ws.viewB()->parentWidget()->parentWidget());
    QVERIFY(b);
    QVERIFY(!b->isVisible());  // no second run yet: nothing of it takes room
    ws.viewB()->show();
    QVERIFY(b->isVisible());
    ws.viewB()->hide();
    QVERIFY(!b->isVisible());
  }
};

QTEST_MAIN(TestTraceScroll)
#include "test_trace_scroll.moc"
