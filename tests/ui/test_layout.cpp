// The default layout at the default window size: the per-stage table shows every column
// (Headroom last) without a horizontal scroll bar, and each memory strip names its stage's peak
// in a label column wide enough for it; the side docks run the full height, so the workload
// (its length histogram whole) and the configuration show without scrolling, and the metrics
// table without cutting most of its rows.
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "gantt/gantt_view.h"
#include "models/stage_model.h"
#include "panels/metrics_panel.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

class TestLayout : public QObject {
  Q_OBJECT
 private slots:
  void stageTableShowsHeadroomWithoutScrolling() {
    QTemporaryDir dir;
    auto settings = Settings::fromFile(dir.filePath("settings.ini"));
    MainWindow window(*settings);
    window.setErrorDialogsEnabled(false);
    window.resize(1600, 1000);  // the first window on a usual desktop screen
    window.show();
    window.resetLayout();
    ExplorerController& c = window.controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), 60000);
    QTableView* table = window.metricsPanel()->stageView();
    QTRY_COMPARE(table->model()->rowCount(), 4);
    QApplication::processEvents();
    QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
    const int last = table->model()->columnCount() - 1;
    QCOMPARE(table->model()->headerData(last, Qt::Horizontal).toString(),
             QStringLiteral("Headroom"));
    // Every column at least as wide as its header and cells need.
    for (int col = 0; col < last; ++col)
      QVERIFY2(table->columnWidth(col) >= table->horizontalHeader()->sectionSizeHint(col),
               qPrintable(QString::number(col)));
    // The Gantt's label column fits "peak 42.3 GB" beside each memory strip.
    const GanttView* gantt = window.ganttView();
    const QFontMetrics fm(gantt->paintOptions().font);
    QVERIFY(gantt->currentLayout().labels.width() >=
            fm.horizontalAdvance(QStringLiteral("peak 42.3 GB")) * 4 / 5);

    // The workload and configuration docks: nothing to scroll.
    for (const char* name : {"dock.workload", "dock.config"}) {
      auto* area = qobject_cast<QScrollArea*>(window.findChild<QDockWidget*>(name)->widget());
      QVERIFY(area);
      QVERIFY2(area->verticalScrollBar()->maximum() == 0,
               qPrintable(QStringLiteral("%1 scrolls by %2 px")
                              .arg(name)
                              .arg(area->verticalScrollBar()->maximum())));
    }
    // The side docks reach below the sweep's top: the sweep is under the centre only.
    auto* sweep = window.findChild<QDockWidget*>("dock.sweep");
    auto* config = window.findChild<QDockWidget*>("dock.config");
    QVERIFY(config->geometry().bottom() > sweep->geometry().top());
    QVERIFY(sweep->geometry().left() >= config->geometry().right());
    // At least 15 of the metrics' rows show.
    QTableView* metrics = window.metricsPanel()->metricsView();
    QVERIFY(metrics->rowAt(metrics->viewport()->height() - 1) >= 14 ||
            metrics->rowAt(metrics->viewport()->height() - 1) < 0);
  }
};

QTEST_MAIN(TestLayout)
#include "test_layout.moc"
