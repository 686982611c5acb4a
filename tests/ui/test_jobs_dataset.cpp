// The Dataset tab: the panel runs core/app's run_dataset through its JobTracker on the shared
// worker pool, draws one series of batch points per strategy with the median, p95 and worst batch
// marked, greys a result the settings no longer give, cancels, and a click on the worst batch's
// point makes the explorer's workload that batch, whose Gantt has the dataset's iteration time.
// Named test_jobs_* so that it also runs under ThreadSanitizer.
#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "charts/dataset_chart.h"
#include "jobs/job_tracker.h"
#include "models/dataset_model.h"
#include "models/format.h"
#include "open_window.h"
#include "panels/dataset_panel.h"
#include "panels/state_frame.h"
#include "window/explorer_controller.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 120000;

// Chat-length batches of 64K tokens on p=2, t=2: each solves in milliseconds.
WorkloadSpec chatWorkload() {
  WorkloadSpec w;
  w.preset = "chat-sft";
  w.batch_tokens = 65536;
  return w;
}
ConfigSpec smallConfig() {
  ConfigSpec c;
  c.pp = 2;
  c.tp = 2;
  return c;
}

// Clicks the chart where strategy `s`'s point of `batch` is drawn.
void clickBatch(DatasetChart* chart, int s, int batch) {
  QScatterSeries* series = chart->strategySeries()[static_cast<std::size_t>(s)];
  const QPointF at = chart->chart()->mapToPosition(chart->pointOf(s, batch), series);
  const QPoint pos = chart->view()->mapFromScene(chart->chart()->mapToScene(at));
  QTest::mouseClick(chart->view()->viewport(), Qt::LeftButton, {}, pos);
}

}  // namespace

class TestJobsDataset : public QObject {
  Q_OBJECT
 private slots:
  void modelPassesTheTester() {
    DatasetRequest r;
    r.workload = chatWorkload();
    r.config = smallConfig();
    r.strategies = {"fixed", "slimpack"};
    r.batches = 2;
    auto result = run_dataset(r, TaskPool::serial(), CancelToken::none(), ProgressSink::none());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    DatasetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(std::make_shared<const DatasetResult>(std::move(*result)));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.data(model.index(1, DatasetModel::Strategy)).toString(),
             QStringLiteral("slimpack"));
    QVERIFY(model.data(model.index(1, DatasetModel::Worst)).toString().startsWith("seed 4"));
  }

  void panelRunsDrawsGreysAndChooses() {
    DatasetPanel panel;
    panel.resize(1000, 700);
    panel.show();
    panel.setBasis(chatWorkload(), smallConfig());
    panel.setBatches(5);
    panel.setStrategies(QStringLiteral("fixed, slimpack"));
    QSignalSpy finished(&panel, &DatasetPanel::finished);
    panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QVERIFY2(panel.result(), qPrintable(panel.message()));
    const DatasetResult& r = *panel.result();
    QCOMPARE(r.batches.size(), std::size_t{5});
    // One series of batch points per strategy, every solved batch a point; a mark per strategy.
    QCOMPARE(panel.chart()->strategySeries().size(), std::size_t{2});
    for (std::size_t s = 0; s < 2; ++s) {
      QCOMPARE(panel.chart()->strategySeries()[s]->name(),
               QString::fromStdString(r.strategies[s].strategy));
      QCOMPARE(panel.chart()->strategySeries()[s]->count(), r.strategies[s].solved);
    }
    QCOMPARE(panel.chart()->medianSeries()->count(), 2);
    QCOMPARE(panel.chart()->worstSeries()->count(), 2);
    // The solver beside the iteration: one wrapped line under the plot names every strategy's
    // p95 and its share of the median (axis labels are cut to a column's width).
    const QString solver = panel.chart()->solverLine()->text();
    QVERIFY(panel.chart()->solverLine()->wordWrap());
    for (const DatasetStrategy& st : r.strategies)
      QVERIFY2(solver.contains(QStringLiteral("%1 %2 (").arg(QString::fromStdString(st.strategy),
                                                             formatTime(st.solver_s->p95))),
               qPrintable(solver));
    // The worst batch is drawn at its strategy's highest point.
    const DatasetStrategy& slim = r.strategies[1];
    QCOMPARE(panel.chart()->pointOf(1, slim.worst_batch).y(), slim.iteration_s->max);
    QCOMPARE(panel.resultFrame()->state(), StateFrame::State::Current);

    // A click on the worst batch's point asks for exactly that batch.
    QSignalSpy chosen(&panel, &DatasetPanel::batchChosen);
    QTest::qWait(50);  // the chart lays out its plot area once shown
    clickBatch(panel.chart(), 1, slim.worst_batch);
    QCOMPARE(chosen.count(), 1);
    const auto w = chosen.at(0).at(0).value<WorkloadSpec>();
    QCOMPARE(w.seed, kDefaultSeed + static_cast<std::uint64_t>(slim.worst_batch));

    // Showing one of its batches keeps the result current; another workload greys it.
    panel.setBasis(w, smallConfig());
    QCOMPARE(panel.resultFrame()->state(), StateFrame::State::Current);
    WorkloadSpec other = chatWorkload();
    other.batch_tokens = 131072;
    panel.setBasis(other, smallConfig());
    QCOMPARE(panel.resultFrame()->state(), StateFrame::State::Stale);
    QVERIFY(panel.resultFrame()->greyed());
  }

  void panelCancels() {
    DatasetPanel panel;
    WorkloadSpec w;  // the default long-context preset: many seconds for 64 batches
    panel.setBasis(w, ConfigSpec{});
    panel.setBatches(64);
    panel.run();
    QVERIFY(panel.jobs().busy());
    panel.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.jobs().busy(), kTimeoutMs);
    QCOMPARE(panel.message(), QStringLiteral("cancelled"));
    QVERIFY(!panel.result());
  }

  void worstBatchClickedShowsItInTheGantt() {
    QTemporaryDir dir;
    std::unique_ptr<Settings> settings;
    auto window = openTestWindow(dir, settings);
    ExplorerController& c = window->controller();
    ConfigSpec config = smallConfig();
    config.strategy = "slimpack";
    c.setAll(chatWorkload(), config);
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && c.snapshot()->workload == chatWorkload() && !c.busy(),
                             kTimeoutMs);
    auto* panel = window->findChild<DatasetPanel*>();
    QVERIFY(panel);
    QTabWidget* tabs = nullptr;  // the window's central tabs: the panel's
    for (QObject* p = panel->parent(); p != nullptr && tabs == nullptr; p = p->parent())
      tabs = qobject_cast<QTabWidget*>(p);
    QVERIFY(tabs);
    tabs->setCurrentWidget(panel);
    panel->setBatches(4);
    panel->setStrategies(QStringLiteral("slimpack"));
    QSignalSpy finished(panel, &DatasetPanel::finished);
    panel->run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QVERIFY2(panel->result(), qPrintable(panel->message()));
    const DatasetStrategy& s = panel->result()->strategies[0];
    QTest::qWait(50);
    clickBatch(panel->chart(), 0, s.worst_batch);
    // The explorer now solves that batch: the Gantt's workload and iteration time are the batch's.
    const std::uint64_t seed = kDefaultSeed + static_cast<std::uint64_t>(s.worst_batch);
    QCOMPARE(c.workload().seed, seed);
    QVERIFY(tabs->currentWidget() != panel);
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && c.snapshot()->workload.seed == seed && !c.busy(),
                             kTimeoutMs);
    QCOMPARE(c.snapshot()->sim.iteration_time, s.iteration_s->max);
    // The tab still shows that dataset as current.
    QCOMPARE(panel->resultFrame()->state(), StateFrame::State::Current);
  }
};

QTEST_MAIN(TestJobsDataset)
#include "test_jobs_dataset.moc"
