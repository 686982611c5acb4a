// The summary charts and the compare view update in place on a live re-solve (QtCharts rebuilds
// and widget re-creation cost the GUI thread milliseconds per slider step), and what they show
// after an in-place update is exactly what a fresh build would show.
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>
#include <QValueAxis>

#include "../core/render/gantt_fixture.h"
#include "charts/chart_style.h"
#include "charts/memory_chart.h"
#include "charts/sweep_chart.h"
#include "gantt/gantt_view.h"
#include "panels/compare_view.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

// One replica; stage s peaks at peaks[s] bytes; the cap is `cap` bytes.
SnapshotPtr memorySnapshot(const std::vector<double>& peaks, double cap) {
  auto s = std::make_shared<ExplorerSnapshot>();
  s->sim.replicas.resize(1);
  for (double p : peaks) {
    StageResult st;
    st.peak_memory_bytes = p;
    s->sim.replicas[0].stages.push_back(st);
  }
  s->memory_cap_bytes = cap;
  return s;
}

QBarSeries* barsOf(QChart* chart) {
  for (QAbstractSeries* s : chart->series())
    if (auto* b = qobject_cast<QBarSeries*>(s)) return b;
  return nullptr;
}

QLineSeries* capOf(QChart* chart) {
  for (QAbstractSeries* s : chart->series())
    if (auto* l = qobject_cast<QLineSeries*>(s)) return l;
  return nullptr;
}

SweepPoint point(Tokens s, double seconds, double bubble) {
  SweepPoint p;
  p.slice_size = s;
  p.ok = true;
  p.iteration_time = seconds;
  p.bubble_ratio = bubble;
  return p;
}

QScatterSeries* seriesNamed(QChart* chart, const QString& name) {
  for (QAbstractSeries* s : chart->series())
    if (s->name() == name) return qobject_cast<QScatterSeries*>(s);
  return nullptr;
}

// A comparison entry drawing the fixture's two-stage plan with every time multiplied by `scale`
// (its time extent is 15 * scale).
// Entries as run_compare returns them: speed-ups over the first solved row filled in.
std::vector<CompareEntry> speedups(std::vector<CompareEntry> entries) {
  set_compare_speedups(entries);
  return entries;
}

CompareEntry entry(const std::string& strategy, double scale) {
  auto pr = testing::tiny_plan();
  for (auto& st : pr.result.replicas[0].stages)
    for (auto& op : st.ops) op.start *= scale, op.end *= scale;
  pr.result.makespan *= scale;
  pr.result.iteration_time *= scale;
  pr.result.replicas[0].makespan *= scale;
  pr.result.replicas[0].finish *= scale;
  CompareEntry e;
  e.strategy = strategy;
  e.gantt = std::make_shared<const GanttModel>(GanttModel::build(pr.plan, pr.result));
  e.plan = std::make_shared<const Plan>(pr.plan);
  e.sim = std::make_shared<const SimResult>(pr.result);
  return e;
}

}  // namespace

class TestCharts : public QObject {
  Q_OBJECT
 private slots:
  void memoryChartUpdatesBarsInPlace() {
    MemoryChart chart;
    chart.setSnapshot(memorySnapshot({10e9, 20e9}, 80e9));
    QBarSeries* bars = barsOf(chart.chart());
    QVERIFY(bars != nullptr);
    QCOMPARE(bars->barSets().size(), 1);
    QCOMPARE(bars->barSets()[0]->count(), 2);
    QCOMPARE(bars->barSets()[0]->at(0), 10.0);
    QCOMPARE(bars->barSets()[0]->at(1), 20.0);
    QLineSeries* cap = capOf(chart.chart());
    QVERIFY(cap != nullptr);
    QCOMPARE(cap->points(), (QList<QPointF>{{-0.5, 80.0}, {1.5, 80.0}}));
    QCOMPARE(cap->name(), QStringLiteral("cap 80.0 GB"));

    // Same shape: the same series objects carry the new values; the axis grows past the cap.
    chart.setSnapshot(memorySnapshot({30e9, 100e9}, 80e9));
    QCOMPARE(barsOf(chart.chart()), bars);
    QCOMPARE(bars->barSets()[0]->at(0), 30.0);
    QCOMPARE(bars->barSets()[0]->at(1), 100.0);
    auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).front());
    QVERIFY(y != nullptr);
    // 10 % above the highest bar is 110 GB: five steps of 50 would overshoot, so 6 ticks of 20.
    QCOMPARE(y->max(), 120.0);
    QCOMPARE(y->tickCount(), 7);

    // A new shape (three stages, no cap) is rebuilt.
    chart.setSnapshot(memorySnapshot({1e9, 2e9, 3e9}, 0.0));
    QCOMPARE(barsOf(chart.chart())->barSets()[0]->count(), 3);
    QCOMPARE(barsOf(chart.chart())->barSets()[0]->at(2), 3.0);
    QVERIFY(capOf(chart.chart()) == nullptr);

    chart.setSnapshot(nullptr);
    QVERIFY(chart.chart()->series().isEmpty());
  }

  void niceAxesHaveRoundTicks() {
    const auto is = [](NiceAxis a, double max, int ticks) {
      return a.max == max && a.ticks == ticks;
    };
    QVERIFY(is(nice_zero_based_axis(88.0, 6), 100.0, 6));  // 80 GB cap + 10 %: steps of 20
    QVERIFY(is(nice_zero_based_axis(110.0, 7), 120.0, 7));
    QVERIFY(is(nice_zero_based_axis(3.3, 6), 4.0, 5));  // steps of 1
    QVERIFY(is(nice_zero_based_axis(0.7, 6), 0.8, 5));  // steps of 0.2
    QVERIFY(is(nice_zero_based_axis(450.0, 6), 500.0, 6));
    QVERIFY(is(nice_zero_based_axis(0.0, 6), 1.0, 2));  // nothing to show: a unit axis
  }

  void sweepChartMovesTheCurrentMarker() {
    SweepChart chart;
    chart.setPoints({point(2048, 1.2, 0.30), point(4096, 1.0, 0.20), point(8192, 1.1, 0.25)});
    chart.setCurrentSlice(4096);
    QScatterSeries* current = seriesNamed(chart.chart(), QStringLiteral("current S"));
    QVERIFY(current != nullptr);
    QCOMPARE(current->points(), (QList<QPointF>{{4096.0, 1000.0}}));
    chart.setCurrentSlice(8192);
    QCOMPARE(seriesNamed(chart.chart(), QStringLiteral("current S")), current);
    QCOMPARE(current->points(), (QList<QPointF>{{8192.0, 1100.0}}));
    chart.setCurrentSlice(1234);  // not a swept size: no marker
    QVERIFY(current->points().isEmpty());
    // A new sweep replaces the line's points (milliseconds against S).
    chart.setPoints({point(1024, 2.0, 0.5)});
    auto* line = qobject_cast<QLineSeries*>(chart.chart()->series().front());
    QVERIFY(line != nullptr);
    QCOMPARE(line->points(), (QList<QPointF>{{1024.0, 2000.0}}));
  }

  void compareViewReusesItsGanttsForTheSameStrategies() {
    CompareView view;
    view.setEntries(speedups({entry("fixed", 1.0), entry("slimpack", 0.5)}));
    QCOMPARE(view.views().size(), std::size_t{2});
    const std::vector<GanttView*> first = view.views();
    QCOMPARE(first[1]->model()->time_extent().t1, 7.5);
    QCOMPARE(first[1]->viewRange().t1, 15.0);  // the shared axis spans the longest plan

    // A re-run of the same strategies: the same widgets get the new models.
    view.setEntries(speedups({entry("fixed", 2.0), entry("slimpack", 1.0)}));
    QCOMPARE(view.views(), first);
    QCOMPARE(first[0]->model()->time_extent().t1, 30.0);
    QCOMPARE(first[1]->model()->time_extent().t1, 15.0);
    QCOMPARE(first[1]->viewRange().t1, 30.0);
    // Each Gantt's title carries its headline numbers: slimpack is 30 / 15 = 2x faster here.
    const auto* title = first[1]->parentWidget()->findChild<QLabel*>();
    QVERIFY(title != nullptr);
    QVERIFY2(title->text().startsWith(QStringLiteral("<b>slimpack</b>")) &&
                 title->text().contains(QStringLiteral("2.00x")),
             qPrintable(title->text()));

    // Other strategies: new widgets, and the old ones, titles included, are gone.
    view.setEntries(speedups({entry("sliced", 1.0), entry("fixed", 1.0), entry("slimpack", 1.0)}));
    QCOMPARE(view.views().size(), std::size_t{3});
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCOMPARE(view.findChildren<GanttView*>().size(), 3);
    int titles = 0;
    for (const QLabel* label : view.findChildren<QLabel*>())
      titles += label->text().startsWith(QStringLiteral("<b>")) ? 1 : 0;
    QCOMPARE(titles, 3);
  }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
