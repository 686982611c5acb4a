// The trace view's layers over the sample Kineto trace (samples/traces/kineto_small.json): its
// instant events (two "[memory]" and one "Iteration Start" on the CPU thread) drawn, searched and
// selected; its counter tracks ("GPU memory" of the GPU process, memory allocated from the
// "[memory]" events) with the peak `slimpack trace summary` prints; the All Flows toggle (two
// launch flows); the lane-label column dragged wider in both stacked views; and the tab's
// minimum size, which a trace with long names must not grow.
#include <QFile>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QtTest>
#include <cstdint>

#include "trace/elided_label.h"
#include "trace/timeline_stack.h"
#include "trace/trace_counter_painter.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_flow_pairs.h"
#include "trace/trace_label_width.h"
#include "trace/trace_search.h"
#include "trace/trace_summary.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

QString sample(const char* name) {
  return QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/") + QString::fromLatin1(name);
}

class Fixture {
 public:
  Fixture() {
    ws.resize(1200, 800);
    ws.show();
  }
  bool open(const QStringList& paths, TraceWorkspace::Slot slot = TraceWorkspace::Slot::A) {
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);
    ws.openTraces(paths, slot);
    const bool ok = loaded.wait(kTimeoutMs) || loaded.count() > 0;
    QTest::qWait(20);  // the views laid out at their new heights
    return ok;
  }
  const ImportedTrace& trace() const { return *ws.viewA()->timeline()->sources().front().trace; }
  TraceWorkspace ws;
};

// Where an instant's marker is drawn, in the view's coordinates.
QPoint marker_of(TraceView* v, TraceEventRef ref) {
  const TraceLayerContext c = v->layerContext();
  const int row = TraceInstantLayer::rowOf(c, ref);
  const double t = c.seconds(v->timeline()->event(ref)->start_us);
  return {static_cast<int>(c.scale.x_of(t)), c.layout.bar_band(row).top() + 2};
}

// The visible widgets asking for more than `width`, to name the culprit when the tab grows.
QString widest_children(const QWidget& root, int width) {
  QStringList out;
  for (const QWidget* w : root.findChildren<QWidget*>())
    if (w->isVisible() && w->minimumSizeHint().width() > width)
      out << QStringLiteral("%1 (%2) %3")
                 .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                 .arg(w->minimumSizeHint().width());
  return out.join(QStringLiteral(", "));
}

void press_move_release(QWidget* w, QPoint from, QPoint to) {
  QTest::mousePress(w, Qt::LeftButton, Qt::NoModifier, from);
  QMouseEvent move(QEvent::MouseMove, QPointF(to), w->mapToGlobal(QPointF(to)), Qt::NoButton,
                   Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(w, &move);
  QTest::mouseRelease(w, Qt::LeftButton, Qt::NoModifier, to);
}

}  // namespace

class TestTraceLayers : public QObject {
  Q_OBJECT

 private slots:
  void instantsAreDrawnSearchedAndSelected() {
    Fixture f;
    QVERIFY(f.open({sample("kineto_small.json")}));
    TraceView* v = f.ws.viewA();
    QCOMPARE(v->timeline()->instant_count(), std::int64_t{3});
    v->grab();
    QCOMPARE(v->instants().lastPainted(), 3);

    // The search finds the two "[memory]" events (no bar has that name) and steps onto them.
    QCOMPARE(f.ws.search().find(QStringLiteral("[memory]")), 2);
    QCOMPARE(f.ws.search().matchCount(), 2);
    QCOMPARE(v->instants().marked().size(), std::size_t{2});
    f.ws.search().nextMatch();
    const TraceEventRef first = v->selectedEvent();
    QVERIFY(first.instant);
    QCOMPARE(v->timeline()->event(first)->start_us, 1015.0);
    QVERIFY(f.ws.details()->eventText().contains(QStringLiteral("[memory]")));
    QVERIFY(f.ws.details()->argsText().contains(QStringLiteral("\"Total Allocated\":1048576")));

    // A click on the second one's marker selects it; its tooltip says what it is.
    const TraceEventRef second{first.source, first.lane, first.index + 1, true};
    QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, marker_of(v, second));
    QCOMPARE(v->selectedEvent(), second);
    QVERIFY(f.ws.details()->argsText().contains(QStringLiteral("\"Bytes\":-1024")));
    QVERIFY(v->eventTooltip(second).contains(QStringLiteral("instant at")));
    f.ws.search().find(QString());
    QVERIFY(v->instants().marked().empty());

    // One rule marks the search's matches and a diff row's events (TimelineStack::markWhere): a
    // diff row names bars only, so it replaces the search's instant marks, on every timeline.
    QCOMPARE(f.ws.search().find(QStringLiteral("[memory]")), 2);
    const std::vector<int> marked = f.ws.stack().markWhere(
        [](const std::string& name) { return name == "[memory]"; }, {}, /*bars_only=*/true);
    QCOMPARE(marked, (std::vector<int>{0, 0}));  // run A: no bar of that name; run B: no run
    QVERIFY(v->instants().marked().empty());
  }

  void counterTrackMaxIsTheSummaryPeak() {
    Fixture f;
    QVERIFY(f.open({sample("kineto_small.json")}));
    TraceView* v = f.ws.viewA();
    const TraceTimeline& t = *v->timeline();
    auto summary = summarize_trace(f.trace());
    QVERIFY(summary.ok());
    QCOMPARE(summary->memory.devices.size(), std::size_t{1});
    const double peak = static_cast<double>(*summary->memory.devices[0].total.peak_allocated);
    int memory_row = -1, counter_rows = 0;
    for (int r = 0; r < static_cast<int>(v->rows().size()); ++r) {
      const int k = v->rows()[static_cast<std::size_t>(r)].counter;
      if (k < 0) continue;
      ++counter_rows;
      if (t.counters()[static_cast<std::size_t>(k)].memory) memory_row = r;
    }
    QCOMPARE(counter_rows, 2);
    QVERIFY(memory_row >= 0);
    const TraceCounterView& track =
        t.counters()[static_cast<std::size_t>(v->rows()[memory_row].counter)];
    QCOMPARE(track.max, peak);
    QCOMPARE(track.max, 1048576.0);
    // The track's row is painted with the area; the tooltip at the peak's time gives its value.
    v->grab();
    const TraceLayerContext c = v->layerContext();
    const QPoint at(static_cast<int>(c.scale.x_of(c.seconds(1050.0))),
                    c.layout.lane_rect(memory_row).center().y());
    const QString tip = TraceCounterPainter::tooltip(c, at);
    QVERIFY2(tip.contains(TraceCounterPainter::valueText(track, peak)), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("memory allocated")));
    // Folding the CPU process hides its track.
    v->setGroupCollapsed(track.group, true);
    int after = 0;
    for (const TraceRowInfo& r : v->rows()) after += r.counter >= 0 ? 1 : 0;
    QCOMPARE(after, 1);
  }

  void allFlowsToggleDrawsEveryFlow() {
    Fixture f;
    QVERIFY(f.open({sample("kineto_small.json")}));
    TraceView* v = f.ws.viewA();
    const auto pairs = flow_pairs(f.trace());
    QCOMPARE(pairs.size(), std::size_t{2});
    QCOMPARE(v->flows().flowCount(), std::int64_t{2});
    v->grab();
    QCOMPARE(v->flows().lastDrawn(), 0);  // default: the selected event's flows only
    auto* toggle = f.ws.findChild<QToolButton*>(QStringLiteral("traceAllFlows"));
    QVERIFY(toggle);
    toggle->click();
    QVERIFY(v->allFlowsShown());
    v->grab();
    QCOMPARE(v->flows().lastDrawn(), static_cast<int>(pairs.size()));
    toggle->click();
    v->grab();
    QCOMPARE(v->flows().lastDrawn(), 0);
  }

  void laneWidthDragAppliesToBothViews() {
    Fixture f;
    QVERIFY(f.open({sample("kineto_small.json")}));
    QVERIFY(f.open({sample("step_before.json")}, TraceWorkspace::Slot::B));
    TraceView* a = f.ws.viewA();
    TraceView* b = f.ws.viewB();
    const QRect before = a->currentLayout().labels;
    QCOMPARE(b->currentLayout().labels.width(), before.width());  // equal already (compare)
    const QPoint edge(before.right() + 1, before.top() + 5);
    press_move_release(a, edge, edge + QPoint(80, 0));
    const int want = before.width() + 80;
    QCOMPARE(f.ws.stack().labelWidth()->width(), want);
    QCOMPARE(a->currentLayout().labels.width(), want);
    QCOMPARE(b->currentLayout().labels.width(), want);
    // Dragging in B moves A's too; a double-click on the edge returns to the common width.
    const QRect lb = b->currentLayout().labels;
    press_move_release(b, QPoint(lb.right() + 1, lb.top() + 5), QPoint(lb.right() - 39, lb.top()));
    QCOMPARE(a->currentLayout().labels.width(), want - 40);
    QCOMPARE(b->currentLayout().labels.width(), want - 40);
    const QRect la = a->currentLayout().labels;
    QTest::mouseDClick(a, Qt::LeftButton, Qt::NoModifier, QPoint(la.right() + 1, la.top() + 5));
    QCOMPARE(f.ws.stack().labelWidth()->width(), 0);
    QCOMPARE(a->currentLayout().labels.width(), before.width());
    QCOMPARE(b->currentLayout().labels.width(), before.width());
  }

  void loadingKeepsTheMinimumSize() {
    QTemporaryDir dir;
    // A trace whose file, process, thread, category and step names are all long.
    const QString tail = QString(160, QLatin1Char('x'));
    const QString path = dir.filePath(QStringLiteral("rank0_") + tail + QStringLiteral(".json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QString json = QStringLiteral(
                             R"({"traceEvents": [
{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python3_%1"}},
{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "thread_%1"}},
{"ph": "X", "name": "ProfilerStep#1_%1", "cat": "user_annotation_%1", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
{"ph": "X", "name": "ProfilerStep#2_%1", "cat": "user_annotation_%1", "pid": 1, "tid": 1, "ts": 50, "dur": 50},
{"ph": "i", "name": "[memory]", "cat": "cpu_instant_event", "pid": 1, "tid": 1, "ts": 10, "s": "t", "args": {"Total Allocated": 5}}
]})")
                             .arg(tail);
    file.write(json.toUtf8());
    file.close();
    Fixture f;
    const QSize before = f.ws.minimumSizeHint();
    // The names are long enough that a plain label of the title would widen the tab.
    QLabel plain(QStringLiteral("A: rank0_") + tail + QStringLiteral(".json"));
    QVERIFY(plain.minimumSizeHint().width() > before.width());
    QVERIFY(f.open({path}));
    QTest::qWait(20);
    const QSize after = f.ws.minimumSizeHint();
    QVERIFY2(after.width() <= before.width(),
             qPrintable(QStringLiteral("%1 -> %2; %3")
                            .arg(before.width())
                            .arg(after.width())
                            .arg(widest_children(f.ws, before.width()))));
    // The title keeps its whole text (and tooltip); it paints what fits.
    auto* title = f.ws.findChild<ElidedLabel*>(QStringLiteral("traceTitleA"));
    QVERIFY(title);
    QVERIFY(title->text().endsWith(tail + QStringLiteral(".json")));
  }
};

QTEST_MAIN(TestTraceLayers)
#include "test_trace_layers.moc"
