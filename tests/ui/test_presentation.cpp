// Presentation mode as an audience sees it: no tab bar, no scroll bar or "Zoomed:" line, pack
// labels on every stage, and a saved view without a sequence shows no highlight.
#include <QApplication>
#include <QLabel>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "gantt/gantt_pane.h"
#include "gantt/gantt_view.h"
#include "open_window.h"
#include "painter/gantt_palette.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/presentation_mode.h"
#include "window/saved_views.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kResultTimeoutMs = 60000;

// Bars of `lane` whose inside holds some label-coloured pixels (a pack label; the gaps between
// bars are outside every bar).
int labelledBars(const GanttView& view, const QImage& img, int lane) {
  const GanttModel& m = *view.model();
  const GanttLayout l = view.currentLayout();
  const TimeScale scale = view.timeScale();
  const QRgb text = GanttPalette::make(view.paintOptions().theme).bar_text.rgb();
  const QRect band = l.bar_band(lane);
  int labelled = 0;
  for (const GanttBar& bar : m.lane(lane).bars) {
    const int x0 = static_cast<int>(scale.x_of(bar.start)) + 2;
    const int x1 = static_cast<int>(scale.x_of(bar.end)) - 2;
    if (x1 <= x0 || x0 < l.plot.left() || x1 > l.plot.right()) continue;
    int white = 0;
    for (int x = x0; x < x1; ++x)
      for (int y = band.top() + 2; y < band.bottom() - 1; ++y) white += img.pixel(x, y) == text;
    labelled += white >= 4;
  }
  return labelled;
}
}  // namespace

class TestPresentation : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() {
    window_ = openTestWindow(dir_, settings_);
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
  }
  void cleanupTestCase() { window_.reset(); }

  void hidesTheTabBarAndTheZoomLine() {
    auto* tabs = window_->findChild<QTabWidget*>();
    GanttPane* pane = window_->ganttPane();
    QVERIFY(tabs->tabBar()->isVisible());
    QVERIFY(pane->zoomLabel()->isVisible());
    PresentationMode& pm = window_->presentation();
    pm.enter();
    QVERIFY(!tabs->tabBar()->isVisible());
    QVERIFY(!pane->zoomLabel()->isVisible());
    QVERIFY(!pane->scrollBar()->isVisible());
    pm.leave();
    QVERIFY(tabs->tabBar()->isVisible());
    QVERIFY(pane->zoomLabel()->isVisible());
    QVERIFY(pane->scrollBar()->isVisible());
  }

  // The default plan's four stages: in presentation mode each names some of its packs.
  void labelsPacksOnEveryStage() {
    GanttView* gantt = window_->ganttView();
    PresentationMode& pm = window_->presentation();
    pm.enter();
    QTest::qWait(50);
    const double end = gantt->model()->time_extent().t1;
    gantt->setViewRange(end * 0.3, end * 0.6);
    const QImage img = gantt->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(img.width(), gantt->width());
    if (const QByteArray out = qgetenv("SLIMPACK_GANTT_PICTURES"); !out.isEmpty())
      img.save(QString::fromLocal8Bit(out) + QStringLiteral("/presentation.png"));
    for (int lane = 0; lane < gantt->model()->lane_count(); ++lane)
      QVERIFY2(labelledBars(*gantt, img, lane) >= 3,
               qPrintable(QStringLiteral("stage %1: %2 labelled")
                              .arg(lane)
                              .arg(labelledBars(*gantt, img, lane))));
    pm.leave();
  }

  // Stepping from a view with a pinned sequence (or with the mouse resting on a pack) to one
  // without: no highlight remains.
  void aViewWithoutASequenceClearsTheHighlight() {
    GanttView* gantt = window_->ganttView();
    window_->savedViews().clear();
    window_->showView(QStringLiteral("compare"));
    const double end = gantt->model()->time_extent().t1;
    gantt->setViewRange(0.0, end / 2);
    gantt->setHighlightedSequence(3);
    window_->savedViews().saveCurrent();
    QCOMPARE(window_->savedViews().views().back().tab, std::string("gantt"));
    gantt->setHighlightedSequence(-1);
    gantt->setViewRange(end / 2, end);
    window_->savedViews().saveCurrent();
    QCOMPARE(window_->savedViews().views().back().selected_sequence, -1);

    window_->savedViews().apply(window_->savedViews().views()[0]);
    QCOMPARE(window_->findChild<QTabWidget*>()->currentWidget(), window_->ganttPane()->parent());
    QCOMPARE(gantt->highlightedSequence(), 3);
    window_->savedViews().apply(window_->savedViews().views()[1]);
    QCOMPARE(gantt->highlightedSequence(), -1);

    // The mouse rests on a pack: hovering highlights its longest sequence; the next view clears it.
    const GanttLayout l = gantt->currentLayout();
    const auto& bars = gantt->model()->lane(0).bars;
    const GanttBar& bar = *std::find_if(bars.begin(), bars.end(), [&](const GanttBar& b) {
      return b.kind == BarKind::Backward && b.start > end * 0.7;
    });
    const QPoint on_bar(static_cast<int>(gantt->timeScale().x_of(0.5 * (bar.start + bar.end))),
                        l.bar_band(0).center().y());
    QTest::mouseMove(gantt, on_bar);
    QTRY_VERIFY(gantt->highlightedSequence() >= 0);
    window_->savedViews().apply(window_->savedViews().views()[1]);
    QCOMPARE(gantt->highlightedSequence(), -1);
    window_->savedViews().clear();
  }
};

QTEST_MAIN(TestPresentation)
#include "test_presentation.moc"
