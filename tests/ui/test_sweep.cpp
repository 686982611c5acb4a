// The slice-size sweep: the current S is marked even past the longest sample, points say what
// they are, and Reset to Defaults leaves a computed sweep behind.
#include <QApplication>
#include <QChart>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/sweep_chart.h"
#include "open_window.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kResultTimeoutMs = 60000;

std::vector<SweepPoint> threePoints() {
  std::vector<SweepPoint> pts(3);
  const Tokens s[] = {512, 1024, 2048};
  const double t[] = {9.5, 9.3, 9.4};
  for (int i = 0; i < 3; ++i) {
    pts[i].slice_size = s[i];
    pts[i].ok = true;
    pts[i].iteration_time = t[i];
    pts[i].bubble_ratio = 0.08;
  }
  return pts;
}
}  // namespace

class TestSweep : public QObject {
  Q_OBJECT
 private slots:
  void marksTheCurrentSliceEvenPastTheLongestSample() {
    SweepChart chart;
    chart.setPoints(threePoints());
    chart.setCurrentSlice(1024);
    QCOMPARE(chart.currentSeries()->count(), 1);
    QCOMPARE(chart.currentSeries()->at(0), QPointF(1024, 9300));
    // S = 4096 slices nothing of a batch whose longest sample is 2048: it runs as the last point.
    chart.setCurrentSlice(4096);
    QCOMPARE(chart.currentSeries()->count(), 1);
    QCOMPARE(chart.currentSeries()->at(0), QPointF(2048, 9400));
    // Between two points (not one of the sweep's values): no marker pretends it was swept.
    chart.setCurrentSlice(1500);
    QCOMPARE(chart.currentSeries()->count(), 0);
  }

  void pointsSayTheirSliceAndIterationTime() {
    const auto pts = threePoints();
    QCOMPARE(SweepChart::pointAt(pts, 1100.0), 1);
    const QString text = SweepChart::pointText(pts[1]);
    QVERIFY2(text.contains(QStringLiteral("S = 1,024")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("9.30 s")), qPrintable(text));
    // Every series that draws points answers hovering, the current-S marker included.
    SweepChart chart;
    chart.setPoints(pts);
    chart.setCurrentSlice(1024);
    for (QAbstractSeries* s : chart.chart()->series()) {
      auto* scatter = qobject_cast<QScatterSeries*>(s);
      if (!scatter) continue;
      QVERIFY2(chart.hasTooltip(scatter), qPrintable(scatter->name()));
    }
  }

  void resetToDefaultsRecomputesTheSweep() {
    QTemporaryDir dir;
    std::unique_ptr<Settings> settings;
    const auto opened = openTestWindow(dir, settings);
    MainWindow& window = *opened;
    ExplorerController& c = window.controller();
    SweepPanel* sweep = window.sweepPanel();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy() && sweep->hasPoints(), kResultTimeoutMs);
    ConfigSpec other = c.config();
    other.pp = 2;
    c.setConfig(other);
    // Reset while the sweep for p = 2 still runs: the sweep that stays is the one for the defaults.
    QTRY_VERIFY_WITH_TIMEOUT(
        c.snapshot() && c.snapshot()->config.pp == 2 && !c.busy() && !c.sweepJobs().busy(),
        kResultTimeoutMs);
    c.resetToDefaults();
    c.requestSweep();  // still for p = 2: the defaults' result arrives while it runs
    QTRY_VERIFY_WITH_TIMEOUT(
        c.snapshot() && c.snapshot()->config.pp == 4 && !c.busy() && !c.sweepJobs().busy(),
        kResultTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!c.sweepJobs().busy(), kResultTimeoutMs);
    QVERIFY(sweep->hasPoints());
    QVERIFY(!sweep->isStale(*c.snapshot()));
    QCOMPARE(sweep->resultFrame()->state(), StateFrame::State::Current);
    QVERIFY(!sweep->chart()->points().empty());
  }
};

QTEST_MAIN(TestSweep)
#include "test_sweep.moc"
