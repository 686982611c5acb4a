// After a change the metrics say how much better or worse the new result is than the previous one.
#include <QtTest>
#include <memory>

#include "models/format.h"
#include "models/metrics_model.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

SnapshotPtr snapshotWith(double iteration, double tokens_per_second, double bubble) {
  auto s = std::make_shared<ExplorerSnapshot>();
  s->sim.iteration_time = iteration;
  s->sim.makespan = iteration;
  s->sim.tokens_per_second = tokens_per_second;
  s->sim.bubble_ratio = bubble;
  return s;
}

QString valueOf(const std::vector<MetricRow>& rows, const QString& name) {
  for (const auto& r : rows)
    if (r.name == name) return r.value;
  return {};
}

}  // namespace

class TestMetricsDelta : public QObject {
  Q_OBJECT
 private slots:
  void changeIsFormattedWithSignAndPercent() {
    QCOMPARE(formatChange(9.31, 9.51), QStringLiteral("\u22122.1 % vs previous"));
    QCOMPARE(formatChange(10.0, 8.0), QStringLiteral("+25.0 % vs previous"));
    QCOMPARE(formatChange(9.3101, 9.31), QStringLiteral("same as previous"));
    QVERIFY(formatChange(1.0, 0.0).isEmpty());
  }

  void modelShowsTheDeltaAgainstThePreviousResult() {
    MetricsModel model;
    model.setSnapshot(snapshotWith(9.51, 110e3, 0.10));
    // The first result has nothing to compare with.
    QCOMPARE(valueOf(model.rows(), QStringLiteral("Iteration time")), QStringLiteral("9.51 s"));
    model.setSnapshot(snapshotWith(9.31, 112e3, 0.08));
    QCOMPARE(valueOf(model.rows(), QStringLiteral("Iteration time")),
             QStringLiteral("9.31 s (\u22122.1 % vs previous)"));
    QVERIFY2(valueOf(model.rows(), QStringLiteral("Throughput")).contains(QStringLiteral("+1.8 %")),
             qPrintable(valueOf(model.rows(), QStringLiteral("Throughput"))));
    QVERIFY(valueOf(model.rows(), QStringLiteral("Bubble ratio"))
                .contains(QStringLiteral("\u221220.0 % vs previous")));
    // The tooltip names the previous value.
    for (const auto& r : model.rows())
      if (r.name == QStringLiteral("Iteration time"))
        QVERIFY2(r.tooltip.contains(QStringLiteral("Previous result: 9.51 s")),
                 qPrintable(r.tooltip));
    // The same snapshot again (a repaint, a theme change) keeps comparing with the one before.
    const SnapshotPtr again = snapshotWith(9.0, 0, 0.05);
    model.setSnapshot(again);
    model.setSnapshot(again);
    QCOMPARE(valueOf(model.rows(), QStringLiteral("Iteration time")),
             QStringLiteral("9.00 s (\u22123.3 % vs previous)"));
  }
};

QTEST_MAIN(TestMetricsDelta)
#include "test_metrics_delta.moc"
