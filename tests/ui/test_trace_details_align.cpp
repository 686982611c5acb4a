// The details area after the two runs are aligned at an event (run A gets another origin): it
// follows run A's timeline, the matches show the new start times, and a click on a match or on a
// linked event still goes there.
#include <QFile>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QtTest>

#include "trace/trace_details_panel.h"
#include "trace/trace_run_alignment.h"
#include "trace/trace_search.h"
#include "trace/trace_tables.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

// "init" [0, 10) then "step" [100, 200) holding "mm" [120, 130) on the CPU thread.
QString write_run(const QTemporaryDir& dir, const QString& name) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(R"({"traceEvents": [
    {"ph": "X", "name": "init", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "name": "step", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
    {"ph": "X", "name": "mm", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 120, "dur": 10}]})");
  return path;
}

}  // namespace

class TestTraceDetailsAlign : public QObject {
  Q_OBJECT

 private slots:
  void detailsFollowAnAlignment() {
    TraceWorkspace ws;
    ws.resize(1200, 700);
    ws.show();
    QTemporaryDir dir;
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);
    ws.openTraces({write_run(dir, QStringLiteral("a.json"))});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    ws.openTraces({write_run(dir, QStringLiteral("b.json"))}, TraceWorkspace::Slot::B);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!ws.busy(), kTimeoutMs);

    QVERIFY(ws.alignment().alignAtEvent(QStringLiteral("step")));  // time zero at 100 µs now
    QCOMPARE(ws.viewA()->timeline()->origin_us(), 100.0);
    TraceDetailsPanel* d = ws.details();
    QCOMPARE(d->timeline(), ws.viewA()->timeline());
    ws.search().find(QStringLiteral("mm"));
    QCOMPARE(ws.search().matchCount(), 1);
    QCOMPARE(d->matches()->index(0, TraceMatchModel::Start).data().toString(),
             trace_duration_text(20e-6));
    // A click on the match goes to it in run A.
    ws.viewA()->selectEvent({});
    QTableView* t = d->matchTable();
    d->setCurrentIndex(TraceDetailsPanel::MatchesTab);
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {},
                      t->visualRect(t->model()->index(0, 0)).center());
    const TraceEventRef sel = ws.viewA()->selectedEvent();
    QVERIFY(sel.valid());
    QCOMPARE(ws.viewA()->timeline()->name(sel), std::string("mm"));
    QVERIFY(d->eventText().contains(QStringLiteral("start: ") + trace_duration_text(20e-6)));
    // A child of step, from the list, in run B once it was described there.
    ws.viewB()->revealEvent({0, 0, 1});  // B's "step"
    QCOMPARE(d->children()->count(), 1);
    QListWidget* c = d->children();
    QTest::mouseClick(c->viewport(), Qt::LeftButton, {}, c->visualItemRect(c->item(0)).center());
    QCOMPARE(ws.viewB()->timeline()->name(ws.viewB()->selectedEvent()), std::string("mm"));
  }
};

QTEST_MAIN(TestTraceDetailsAlign)
#include "test_trace_details_align.moc"
