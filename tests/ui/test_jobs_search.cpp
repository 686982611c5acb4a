// The Search tab: the QtTaskPool runs core loops on the shared worker pool (every item once, even
// with no free thread), the table model passes QAbstractItemModelTester, and the panel runs a
// search through its JobTracker, draws the front, loads a clicked configuration and cancels.
// Named test_jobs_* so that it also runs under ThreadSanitizer.
#include <QAbstractItemModelTester>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <mutex>
#include <vector>

#include "charts/search_chart.h"
#include "jobs/job_tracker.h"
#include "jobs/qt_task_pool.h"
#include "models/search_model.h"
#include "panels/search_panel.h"
#include "search_test_support.h"

using namespace slimpack;
using namespace slimpack::ui;

class TestJobsSearch : public QObject {
  Q_OBJECT
 private slots:
  void poolRunsEveryItemOnce() {
    QThreadPool pool;
    pool.setMaxThreadCount(3);
    QtTaskPool tasks(pool);
    QCOMPARE(tasks.workers(), 3);
    std::atomic<int> next{0};
    std::vector<int> hits(1000, 0);
    std::mutex mutex;
    std::vector<int> workers_seen;
    tasks.run_on_workers([&](int worker) {
      for (int i; (i = next.fetch_add(1)) < 1000;) ++hits[static_cast<std::size_t>(i)];
      std::lock_guard lock(mutex);
      workers_seen.push_back(worker);
    });
    for (int h : hits) QCOMPARE(h, 1);
    QVERIFY(!workers_seen.empty());
  }

  void poolWithNoFreeThreadStillFinishes() {
    QThreadPool pool;
    pool.setMaxThreadCount(1);
    std::atomic<bool> release{false};
    // The pool's one thread is busy until the loop below is done.
    pool.start([&] {
      while (!release.load()) QThread::msleep(1);
    });
    QtTaskPool tasks(pool, 4);
    std::atomic<int> done{0};
    tasks.run_on_workers([&](int) {
      while (done.load() < 100) ++done;
    });
    QVERIFY(done.load() >= 100);
    release = true;
    pool.waitForDone();
  }

  void modelPassesTheTester() {
    SearchRequest r;
    r.workload = smallSearchWorkload();
    r.space.gpus = 4;
    r.batches = 1;
    auto result = run_search(r, TaskPool::serial(), CancelToken::none(), ProgressSink::none());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    SearchModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto shared = std::make_shared<const SearchResult>(std::move(*result));
    model.setResult(shared);
    // Ranked solved rows first, then the infeasible ones.
    QCOMPARE(model.rowCount(), static_cast<int>(shared->ranking.size()) + shared->stats.infeasible);
    QCOMPARE(model.resultRow(0), shared->ranking.front());
    QCOMPARE(model.data(model.index(0, SearchModel::Rank)).toInt(), 1);
    const int last = model.resultRow(model.rowCount() - 1);
    QCOMPARE(shared->rows[static_cast<std::size_t>(last)].status, SearchStatus::Infeasible);
    QVERIFY(model.data(model.index(model.rowCount() - 1, SearchModel::Status))
                .toString()
                .startsWith(QStringLiteral("infeasible: stage memory")));
  }

  void panelSearchesDrawsAndLoads() {
    SearchPanel panel;
    ConfigSpec config;
    panel.setBasis(smallSearchWorkload(), config);
    panel.setGpus(4);
    panel.setBatches(1);
    QSignalSpy finished(&panel, &SearchPanel::finished);
    panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QVERIFY2(panel.result(), qPrintable(panel.message()));
    const SearchResult& result = *panel.result();
    QVERIFY(!result.front.empty());
    QCOMPARE(panel.chart()->frontSeries()->count(), static_cast<int>(result.front.size()));
    QCOMPARE(panel.chart()->frontSeries()->count() + panel.chart()->otherSeries()->count(),
             result.stats.solved);
    QVERIFY(panel.message().contains(QStringLiteral("on the front")));
    // The best configuration, clicked in the plot, becomes the explorer's configuration.
    const SearchRow& best = result.rows[static_cast<std::size_t>(result.ranking.front())];
    QSignalSpy chosen(&panel, &SearchPanel::configurationChosen);
    const QPointF at(best.config.gpus(), best.tokens_per_second_per_gpu);
    QCOMPARE(panel.chart()->rowAt(at), result.ranking.front());
    emit panel.chart()->configurationClicked(panel.chart()->rowAt(at));
    QCOMPARE(chosen.count(), 1);
    const auto spec = chosen.at(0).at(0).value<ConfigSpec>();
    QCOMPARE(spec.pp, best.config.p);
    QCOMPARE(spec.tp, best.config.t);
    QCOMPARE(spec.cp, best.config.c);
    QCOMPARE(spec.strategy, best.config.strategy);
    // Export: the table as CSV, the plot as PNG.
    QTemporaryDir dir;
    QVERIFY(panel.exportTo(dir.filePath(QStringLiteral("s.csv"))).ok());
    QVERIFY(panel.exportTo(dir.filePath(QStringLiteral("s.png"))).ok());
    QVERIFY(panel.exportTo(dir.filePath(QStringLiteral("s.json"))).ok());
  }

  void panelCancels() {
    SearchPanel panel;
    panel.setBasis(smallSearchWorkload(), ConfigSpec{});
    panel.setGpus(64);
    panel.setBatches(4);
    panel.run();
    QVERIFY(panel.jobs().busy());
    panel.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.jobs().busy(), 60000);
    QCOMPARE(panel.message(), QStringLiteral("cancelled"));
    QVERIFY(!panel.result());
  }
};

QTEST_MAIN(TestJobsSearch)
#include "test_jobs_search.moc"
