// Views that do not show the current settings must look it, at once and on screen: an infeasible
// change greys the Gantt, the sweep and the memory chart in the window's painted pixels (read
// back from the platform's backing store, with no mouse moved over them); the banners take their
// own row and hide nothing they speak of; a zoomed range kept into a new, shorter result re-fits.
#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "charts/sweep_chart.h"
#include "gantt/gantt_pane.h"
#include "gantt/gantt_view.h"
#include "panels/config_panel.h"
#include "panels/metrics_panel.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "type_into.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 60000;
using testing::typeInto;

// What the window shows now: the platform's copy of the painted window (on the offscreen platform
// its backing store), not a fresh render of the widgets as QWidget::grab would make.
QImage onScreen(QWidget* window) {
  return window->screen()->grabWindow(window->winId()).toImage();
}

// The most saturated pixel of `area` (window coordinates): 0 for a grey picture.
int maxSaturation(const QImage& image, const QRect& area) {
  int most = 0;
  const QRect r = area.intersected(image.rect());
  for (int y = r.top(); y <= r.bottom(); y += 2)
    for (int x = r.left(); x <= r.right(); x += 2)
      most = std::max(most, QColor(image.pixel(x, y)).hsvSaturation());
  return most;
}

QRect inWindow(QWidget* w) {
  return QRect(w->mapTo(w->window(), QPoint(0, 0)), w->size());
}
}  // namespace

class TestStaleViews : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

  ExplorerController& c() { return window_->controller(); }
  void waitIdle() { QTRY_VERIFY_WITH_TIMEOUT(c().snapshot() && !c().busy(), kTimeoutMs); }
  QAction* menuAction(const QString& text) {
    for (QAction* a : window_->menuBar()->findChildren<QAction*>())
      if (a->text().remove('&') == text) return a;
    return nullptr;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanupTestCase() { window_.reset(); }

  void anInfeasibleChangeGreysEveryViewWithoutAHover() {
    waitIdle();
    SweepPanel* sweep = window_->sweepPanel();
    QTRY_VERIFY_WITH_TIMEOUT(sweep->hasPoints() && !c().sweepJobs().busy(), kTimeoutMs);
    QTest::qWait(100);
    const QList<StateFrame*> frames = {window_->ganttFrame(), window_->memoryFrame(),
                                       sweep->resultFrame()};
    QImage before = onScreen(window_.get());
    for (StateFrame* f : frames)
      QVERIFY2(maxSaturation(before, inWindow(f->content())) > 100,
               qPrintable(f->content()->metaObject()->className()));  // in colour while current

    // t = 1 without recomputation does not fit: the previous result stays, greyed.
    typeInto(window_->configPanel()->recomputeBox()->lineEdit(), QStringLiteral("none"));
    waitIdle();
    typeInto(window_->configPanel()->tpBox(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(c().resultState(), ResultState::Failed, kTimeoutMs);
    QTest::qWait(100);  // the repaints the state change asked for, and nothing else
    const QImage after = onScreen(window_.get());
    for (StateFrame* f : frames) {
      QVERIFY(f->greyed());
      const QRect content = inWindow(f->content());
      QVERIFY2(maxSaturation(after, content) < 40,
               qPrintable(QStringLiteral("%1: saturation %2")
                              .arg(f->content()->metaObject()->className())
                              .arg(maxSaturation(after, content))));
      // The banner has its own row: it covers none of the picture it speaks of.
      QVERIFY(f->banner()->isVisible());
      QVERIFY(!inWindow(f->banner()).intersects(content));
    }
    // The metrics' first rows (strategy, iteration time) and the batch statistics stay readable.
    for (StateFrame* f : {window_->metricsFrame(), window_->workloadPanel()->resultFrame()}) {
      QVERIFY(f->banner()->isVisible());
      QVERIFY(!inWindow(f->banner()).intersects(inWindow(f->content())));
    }
    // A hover over the greyed Gantt repaints part of it: that part stays grey.
    GanttView* g = window_->ganttView();
    const GanttLayout l = g->currentLayout();
    QTest::mouseMove(g, QPoint(l.plot.center().x(), l.bar_band(0).center().y()));
    QTest::qWait(100);
    QVERIFY(maxSaturation(onScreen(window_.get()), inWindow(g)) < 40);

    window_->undoStack()->undo();  // t
    window_->undoStack()->undo();  // recomputation
    waitIdle();
    QTest::qWait(100);
    QCOMPARE(c().resultState(), ResultState::Current);
    QVERIFY(!window_->ganttFrame()->greyed());
    QVERIFY(maxSaturation(onScreen(window_.get()), inWindow(window_->ganttFrame())) > 100);
  }

  void aZoomedViewPastTheNewEndRefits() {
    waitIdle();
    GanttView* g = window_->ganttView();
    const TimeRange defaults = g->model()->time_extent();
    // A longer iteration, zoomed in near its end.
    typeInto(window_->workloadPanel()->batchBox(), 4096);
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && c().snapshot()->workload.batch_tokens == 4096 * 1024,
                             kTimeoutMs);
    const TimeRange long_run = g->model()->time_extent();
    g->setViewRange(long_run.t1 * 0.85, long_run.t1 * 0.95);
    QVERIFY(!g->isFitted());

    // Edit > Reset to Defaults: a result that ends before the zoomed range starts.
    QAction* reset = menuAction(QStringLiteral("Reset to Defaults"));
    QVERIFY(reset);
    reset->trigger();
    waitIdle();
    const TimeRange e = g->model()->time_extent();
    QVERIFY(e.t1 < long_run.t1 * 0.85);
    QVERIFY2(g->isFitted(), qPrintable(window_->ganttPane()->zoomLabel()->text()));
    QVERIFY(window_->ganttPane()->zoomLabel()->text().startsWith("Whole iteration"));
    // Bars are on screen: the first stage has a bar under the middle of the plot.
    bool bar = false;
    const GanttLayout l = g->currentLayout();
    for (int x = l.plot.left(); x < l.plot.right() && !bar; x += 4)
      bar = g->barAt(QPoint(x, l.bar_band(0).center().y())).valid();
    QVERIFY(bar);

    // A zoomed range that runs past a shorter end moves back inside, keeping its width.
    typeInto(window_->workloadPanel()->batchBox(), 2048);
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && c().snapshot()->workload.batch_tokens == 2048 * 1024,
                             kTimeoutMs);
    // Zoomed on a range that runs past the end the defaults' iteration has.
    const double width = defaults.span() * 0.2;
    g->setViewRange(defaults.t1 - width / 2, defaults.t1 + width / 2);
    reset->trigger();
    waitIdle();
    const TimeRange now = g->model()->time_extent();
    QCOMPARE(now.t1, defaults.t1);
    QVERIFY(!g->isFitted());
    QVERIFY(g->viewRange().t1 <= now.t1 * 1.02);
    QVERIFY(qAbs(g->viewRange().span() - width) < width * 1e-6);
    QVERIFY(window_->ganttPane()->zoomLabel()->text().startsWith("Zoomed"));
  }

  // Ctrl+Z with the focus in the Recompute combo's text undoes the configuration change, as it
  // does in a spin box.
  void ctrlZInTheRecomputeComboUndoes() {
    waitIdle();
    QLineEdit* edit = window_->configPanel()->recomputeBox()->lineEdit();
    typeInto(edit, QStringLiteral("none"));
    QCOMPARE(c().config().recompute.mode, RecomputeMode::None);
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c().config().recompute.mode, RecomputeMode::Auto);
    waitIdle();
  }
};

QTEST_MAIN(TestStaleViews)
#include "test_stale_views.moc"
