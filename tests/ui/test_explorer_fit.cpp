// The explorer's small things (issue 33, item 5): the window fits small screens (minimum size, a
// restored geometry, the Metrics values whole at 1280x720), a session reopens on the plan, Save
// Session As has Ctrl+Shift+S, chart points answer a hover, a pinned sequence does not outlive
// its batch, the comparison table shows every row, and a point loaded from the search fits the
// Gantt to its plan and says what the search's figures were.
#include <QAction>
#include <QHeaderView>
#include <QHelpEvent>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QUndoStack>

#include <QChart>
#include <QChartView>
#include <QScatterSeries>

#include "app/session_file.h"
#include "charts/search_chart.h"
#include "charts/sweep_chart.h"
#include "gantt/gantt_view.h"
#include "models/metrics_model.h"
#include "panels/compare_view.h"
#include "panels/metrics_panel.h"
#include "panels/search_panel.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "search_test_support.h"
#include "type_into.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/session_io.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 60000;
using testing::typeInto;

// Where a chart draws `value` of `series`, in its view's viewport.
QPoint drawnAt(QChartView* view, QChart* chart, const QPointF& value, QAbstractSeries* series) {
  return view->mapFromScene(chart->mapToPosition(value, series));
}

// What the viewport's tooltip says after a resting mouse at `pos`.
QString toolTipAfterRest(QWidget* viewport, const QPoint& pos) {
  QToolTip::hideText();
  QHelpEvent help(QEvent::ToolTip, pos, viewport->mapToGlobal(pos));
  QCoreApplication::sendEvent(viewport, &help);
  return QToolTip::isVisible() ? QToolTip::text() : QString();
}
}  // namespace

class TestExplorerFit : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

  ExplorerController& c() { return window_->controller(); }
  void waitIdle() { QTRY_VERIFY_WITH_TIMEOUT(c().snapshot() && !c().busy(), kTimeoutMs); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->resize(1280, 720);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    window_->resetLayout();
  }
  void cleanupTestCase() { window_.reset(); }

  void theWindowFitsASmallScreen() {
    const QSize least = window_->minimumSizeHint();
    if (least.width() > 900 || least.height() > 600) {
      for (QWidget* w : window_->findChildren<QWidget*>())
        if (w->minimumSizeHint().width() > 250 || w->minimumSizeHint().height() > 250 ||
            w->minimumWidth() > 250 || w->minimumHeight() > 250)
          qInfo() << w->metaObject()->className() << w->objectName() << w->minimumSizeHint()
                  << w->minimumSize() << w->isVisible();
    }
    QVERIFY2(least.width() <= 900 && least.height() <= 600,
             qPrintable(QStringLiteral("%1x%2").arg(least.width()).arg(least.height())));
  }

  // At 1280x720 every value of the Metrics dock is drawn whole (the names give way).
  void metricsValuesAreWholeAt1280x720() {
    waitIdle();
    QCOMPARE(window_->size(), QSize(1280, 720));
    QTableView* view = window_->metricsPanel()->metricsView();
    QTRY_VERIFY(view->model()->rowCount() > 5);
    QTest::qWait(50);
    const QFontMetrics fm(view->font());
    const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 1);
    for (int row = 0; row < view->model()->rowCount(); ++row) {
      const QModelIndex value = view->model()->index(row, MetricsModel::Value);
      const QString text = value.data().toString();
      const int room = view->visualRect(value).width();
      // A value longer than half the dock (the solver's notes) is elided, whole in its tooltip.
      if (fm.horizontalAdvance(text) + margin > view->viewport()->width() / 2) {
        QVERIFY2(value.data(Qt::ToolTipRole).toString().size() >= text.size() / 2,
                 qPrintable(value.data(Qt::ToolTipRole).toString()));
        continue;
      }
      QVERIFY2(fm.horizontalAdvance(text) + margin <= room,
               qPrintable(QStringLiteral("row %1: '%2' needs %3 px, has %4")
                              .arg(row)
                              .arg(text)
                              .arg(fm.horizontalAdvance(text) + margin)
                              .arg(room)));
      // And inside the view: the value column is not pushed off its right edge.
      QVERIFY(view->visualRect(value).right() <= view->viewport()->width());
    }
  }

  void saveSessionAsHasCtrlShiftS() {
    QAction* found = nullptr;
    for (QAction* a : window_->menuBar()->findChildren<QAction*>())
      if (a->text().remove('&') == QStringLiteral("Save Session As…")) found = a;
    QVERIFY(found);
    QCOMPARE(found->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
  }

  // A session saved on the (empty) Traces tab reopens on the plan.
  void aSessionWithoutTracesReopensOnTheGantt() {
    waitIdle();
    SessionFile s = window_->session().currentSession();
    s.view.tab = "traces";
    s.traces.files.clear();
    window_->session().applySession(s);
    QCOMPARE(window_->currentTabName(), QStringLiteral("gantt"));
    s.view.tab = "compare";
    window_->session().applySession(s);
    QCOMPARE(window_->currentTabName(), QStringLiteral("compare"));
    window_->showView(QStringLiteral("gantt"));
    waitIdle();
  }

  // A geometry saved on a larger screen opens within this one.
  void aRestoredGeometryFitsTheScreen() {
    QTemporaryDir dir;
    auto settings = Settings::fromFile(dir.filePath("settings.ini"));
    {
      QWidget big;
      big.setGeometry(0, 0, 3000, 2000);
      settings->setWindowGeometry(big.saveGeometry());
    }
    MainWindow w(*settings);
    w.setErrorDialogsEnabled(false);
    const QRect avail = w.screen()->availableGeometry();
    const QSize least = w.minimumSizeHint();
    QVERIFY2(w.width() <= std::max(avail.width(), least.width()) &&
                 w.height() <= std::max(avail.height(), least.height()),
             qPrintable(QStringLiteral("%1x%2 on %3x%4")
                            .arg(w.width())
                            .arg(w.height())
                            .arg(avail.width())
                            .arg(avail.height())));
    QTRY_VERIFY_WITH_TIMEOUT(!w.controller().busy(), kTimeoutMs);
  }

  // Resting the mouse on a sweep point shows its S and figures.
  void sweepPointsAnswerAHover() {
    waitIdle();
    SweepPanel* sweep = window_->sweepPanel();
    QTRY_VERIFY_WITH_TIMEOUT(sweep->hasPoints() && !c().sweepJobs().busy(), kTimeoutMs);
    QTest::qWait(50);
    SweepChart* chart = sweep->chart();
    QScatterSeries* times = nullptr;
    for (QAbstractSeries* s : chart->chart()->series())
      if (auto* scatter = qobject_cast<QScatterSeries*>(s);
          scatter && scatter->count() > 1 && chart->hasTooltip(scatter))
        times = times ? times : scatter;
    QVERIFY(times);
    const QPointF value = times->at(1);
    const QPoint at = drawnAt(chart->view(), chart->chart(), value, times);
    const int i = SweepChart::pointAt(chart->points(), value.x());
    const QString expected = SweepChart::pointText(chart->points()[std::size_t(i)]);
    QCOMPARE(chart->toolTipAt(at + QPoint(2, 1)), expected);
    QCOMPARE(chart->toolTipAt(at + QPoint(40, 40)).isEmpty(), true);
    QCOMPARE(toolTipAfterRest(chart->view()->viewport(), at), expected);
  }

  // A pinned sequence is cleared when the batch changes, kept when only the plan does.
  void aPinnedSequenceGoesWithItsBatch() {
    waitIdle();
    GanttView* g = window_->ganttView();
    g->setHighlightedSequence(3);
    QCOMPARE(g->pinnedSequence(), 3);
    // Another S: the same batch, another plan.
    ConfigSpec spec = c().config();
    spec.slice_size = 8192;
    c().setConfig(spec);
    waitIdle();
    QCOMPARE(g->pinnedSequence(), 3);
    // Another workload: sequence 3 is another sequence.
    typeInto(window_->workloadPanel()->batchBox(), 2048);
    waitIdle();
    QCOMPARE(c().snapshot()->workload.batch_tokens, Tokens{2048 * 1024});
    QCOMPARE(g->pinnedSequence(), -1);
    window_->undoStack()->undo();
    window_->undoStack()->undo();
    waitIdle();
  }

  // The comparison's table shows every strategy's row.
  void theCompareTableShowsEveryRow() {
    waitIdle();
    CompareView* cmp = window_->compareView();
    window_->showView(QStringLiteral("compare"));
    cmp->findChild<QPushButton*>()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!c().compareJobs().busy() && !cmp->entries().empty(), kTimeoutMs);
    QTest::qWait(50);
    QTableView* table = cmp->findChild<QTableView*>();
    QVERIFY(table);
    const int rows = table->model()->rowCount();
    QVERIFY(rows >= 3);
    QVERIFY2(table->verticalHeader()->length() <= table->viewport()->height(),
             qPrintable(QStringLiteral("%1 rows need %2 px, the table shows %3")
                            .arg(rows)
                            .arg(table->verticalHeader()->length())
                            .arg(table->viewport()->height())));
    window_->showView(QStringLiteral("gantt"));
  }

  // A search point answers a hover; clicked, the Gantt fits the new plan and the status bar says
  // that the search's figures are means over K batches.
  void aSearchPointHoversAndLoadsFitted() {
    waitIdle();
    SearchPanel* search = window_->searchPanel();
    WorkloadSpec small = smallSearchWorkload();
    c().setWorkload(small);
    waitIdle();
    search->setGpus(4);
    search->setBatches(2);
    QSignalSpy finished(search, &SearchPanel::finished);
    search->run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    window_->showView(QStringLiteral("search"));
    QTest::qWait(50);
    const SearchResult& result = *search->result();
    const int best = result.ranking.front();
    const SearchRow& row = result.rows[std::size_t(best)];
    SearchChart* chart = search->chart();
    const QPoint at =
        drawnAt(chart->view(), chart->chart(),
                QPointF(row.config.gpus(), row.tokens_per_second_per_gpu), chart->frontSeries());
    QCOMPARE(chart->toolTipAt(at), chart->rowText(best));
    QVERIFY(chart->rowText(best).contains(QStringLiteral("means over")));

    GanttView* g = window_->ganttView();
    g->setViewRange(0.0, g->model()->time_extent().t1 * 0.3);
    QVERIFY(!g->isFitted());
    emit chart->configurationClicked(best);
    waitIdle();
    QVERIFY(g->isFitted());
    const QString note = window_->statusBar()->currentMessage();
    QVERIFY2(note.contains(QStringLiteral("K = 2")) && note.contains(QStringLiteral("batch 0")),
             qPrintable(note));
  }
};

QTEST_MAIN(TestExplorerFit)
#include "test_explorer_fit.moc"
