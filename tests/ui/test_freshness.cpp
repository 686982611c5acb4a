// The one staleness rule (ui/panels/freshness.h), seen on the real widgets: a result computed for
// other inputs is greyed (its numbers included) and not exported as current, from the moment the
// inputs change until the new result arrives, during a new search and after Cancel; a typed
// number is one edit and one undo step.
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "panels/config_panel.h"
#include "panels/freshness.h"
#include "panels/search_panel.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "search_test_support.h"
#include "type_into.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/main_window.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 60000;
using testing::typeInto;

QImage onScreen(QWidget* window) {
  return window->screen()->grabWindow(window->winId()).toImage();
}

// The darkest pixel of `w` as the window shows it (HSV value, 0 = black).
int darkest(QWidget* w) {
  const QImage image = onScreen(w->window());
  const QRect r = QRect(w->mapTo(w->window(), QPoint(0, 0)), w->size()).intersected(image.rect());
  int least = 255;
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x)
      least = std::min(least, QColor(image.pixel(x, y)).value());
  return least;
}
}  // namespace

class TestFreshness : public QObject {
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
  bool sweepMatchesInputs() {
    const InputState now = c().inputs();
    return window_->sweepPanel()->hasPoints() &&
           !window_->sweepPanel()->isStaleFor(now.workload, now.config, now.plan_file) &&
           !c().sweepJobs().busy();
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

  // The rule as a table.
  void theRule() {
    using F = Freshness;
    QCOMPARE(freshnessOf(false, false, false), F::Current);  // nothing to grey
    QCOMPARE(freshnessOf(false, false, true), F::Computing);
    QCOMPARE(freshnessOf(true, true, false), F::Current);
    QCOMPARE(freshnessOf(true, true, true), F::Refreshing);
    QCOMPARE(freshnessOf(true, false, true), F::Computing);
    QCOMPARE(freshnessOf(true, false, false), F::Stale);
    QCOMPARE(freshnessOf(true, false, false, true), F::Failed);
    QVERIFY(exportable(F::Current) && exportable(F::Refreshing));
    QVERIFY(!exportable(F::Computing) && !exportable(F::Stale) && !exportable(F::Failed));
  }

  // A computation for other inputs greys the old picture once it takes longer than a moment; a
  // re-run for the same inputs keeps it in colour.
  void computingGreysAfterTheDelayRefreshingNever() {
    QWidget host;
    auto* content = new QLabel(QStringLiteral("1.23 s"));
    auto* frame = new StateFrame(content, &host);
    host.resize(200, 100);
    frame->resize(200, 100);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    frame->setState(Freshness::Computing, QStringLiteral("computing"));
    QVERIFY(!frame->greyed());  // a slider drag solves within the delay: no flicker
    QTRY_VERIFY(frame->greyed());
    frame->setState(Freshness::Current);
    QVERIFY(!frame->greyed());
    frame->setState(Freshness::Refreshing, QStringLiteral("computing"));
    QTRY_VERIFY(frame->banner()->isVisible());
    QVERIFY(!frame->greyed());
    frame->setState(Freshness::Stale, QStringLiteral("stale"));
    QVERIFY(frame->greyed());
  }

  // A new workload: the sweep of the previous one is greyed from the edit until the new sweep
  // has arrived, never drawn in colour in between.
  void theSweepGreysOnANewWorkloadUntilItsNewResult() {
    waitIdle();
    QTRY_VERIFY_WITH_TIMEOUT(sweepMatchesInputs(), kTimeoutMs);
    StateFrame* frame = window_->sweepPanel()->resultFrame();
    QCOMPARE(frame->state(), Freshness::Current);
    QVERIFY(!frame->greyed());
    typeInto(window_->workloadPanel()->batchBox(), 2048);
    QVERIFY(c().workload().batch_tokens == 2048 * 1024);
    QVERIFY(!sweepMatchesInputs());
    int checks = 0;
    while (!sweepMatchesInputs()) {
      QVERIFY2(frame->greyed(), qPrintable(frame->bannerText()));
      QVERIFY(frame->state() == Freshness::Stale || frame->state() == Freshness::Computing);
      QTest::qWait(10);
      QVERIFY(++checks < kTimeoutMs / 10);
    }
    QTRY_COMPARE(frame->state(), Freshness::Current);
    QVERIFY(!frame->greyed());
    window_->undoStack()->undo();
    waitIdle();
  }

  // Cancelled: the Gantt, metrics and memory show the previous settings greyed, the metrics'
  // values grey rather than black, and nothing of it can be exported; back to current, they are
  // black and exportable again.
  void aCancelledSolveGreysTheMetricsValuesAndStopsExports() {
    waitIdle();
    QTest::qWait(50);
    QWidget* metrics = window_->metricsFrame()->content();
    QVERIFY2(darkest(metrics) < 60, qPrintable(QString::number(darkest(metrics))));
    QAction* image = menuAction(QStringLiteral("Image (PNG, SVG, PDF)…"));
    QVERIFY(image);
    QVERIFY(image->isEnabled());
    QVERIFY(window_->exporter().canExport(Exporter::Kind::Image));

    typeInto(window_->configPanel()->ppBox(), 5);
    QVERIFY(c().busy());
    c().cancelAll();
    QCOMPARE(c().resultState(), ResultState::Cancelled);
    for (StateFrame* f : {window_->ganttFrame(), window_->metricsFrame(), window_->memoryFrame()}) {
      QCOMPARE(f->state(), Freshness::Stale);
      QVERIFY(f->greyed());
    }
    QTest::qWait(50);
    QVERIFY2(darkest(metrics) > 90, qPrintable(QString::number(darkest(metrics))));
    QVERIFY(!image->isEnabled());
    for (auto kind : {Exporter::Kind::Image, Exporter::Kind::ChromeTrace, Exporter::Kind::OpsCsv})
      QVERIFY(!window_->exporter().canExport(kind));
    QSignalSpy failed(&window_->exporter(), &Exporter::failed);
    window_->exporter().exportTo(Exporter::Kind::OpsCsv, dir_.filePath("ops.csv"));
    QCOMPARE(failed.count(), 1);
    QVERIFY(!QFile::exists(dir_.filePath("ops.csv")));

    window_->undoStack()->undo();
    waitIdle();
    QVERIFY(!window_->metricsFrame()->greyed());
    QVERIFY(image->isEnabled());
    QTest::qWait(50);
    QVERIFY(darkest(metrics) < 60);
  }

  // The Search tab: its result greys, and Export is disabled, when the request it answers is no
  // longer the one Search would run (another GPU budget), during a new search and after Cancel.
  void theSearchGreysOnOtherInputsDuringANewSearchAndAfterCancel() {
    SearchPanel panel;
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setBasis(smallSearchWorkload(), ConfigSpec{});
    panel.setGpus(4);
    panel.setBatches(1);
    QSignalSpy finished(&panel, &SearchPanel::finished);
    panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    StateFrame* frame = panel.resultFrame();
    QCOMPARE(frame->state(), Freshness::Current);
    QVERIFY(!frame->greyed());
    QVERIFY(panel.exportButton()->isEnabled());

    panel.setGpus(512);  // the result answers 4 GPUs
    QCOMPARE(frame->state(), Freshness::Stale);
    QVERIFY(frame->greyed());
    QVERIFY(!panel.exportButton()->isEnabled());
    QVERIFY(frame->bannerText().contains(QStringLiteral("4 GPUs")));
    panel.setGpus(4);
    QCOMPARE(frame->state(), Freshness::Current);
    QVERIFY(panel.exportButton()->isEnabled());

    // A new workload (the explorer's basis) makes it stale too.
    WorkloadSpec other = smallSearchWorkload();
    other.seed += 1;
    panel.setBasis(other, ConfigSpec{});
    QCOMPARE(frame->state(), Freshness::Stale);
    panel.setBasis(smallSearchWorkload(), ConfigSpec{});
    QCOMPARE(frame->state(), Freshness::Current);

    // A new search: the old result is not the answer any more; cancelled, it stays greyed.
    panel.setGpus(64);
    panel.setBatches(4);
    panel.run();
    QCOMPARE(frame->state(), Freshness::Computing);
    QVERIFY(!panel.exportButton()->isEnabled());
    panel.cancel();
    QCOMPARE(frame->state(), Freshness::Stale);
    QVERIFY(frame->greyed());
    QVERIFY(!panel.exportButton()->isEnabled());
    QVERIFY(frame->bannerText().contains(QStringLiteral("cancelled")));
    // Even asked again with the result's own request, a cancelled search leaves it greyed until
    // a search delivers.
    panel.setGpus(4);
    panel.setBatches(1);
    QCOMPARE(frame->state(), Freshness::Stale);
    panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
    QCOMPARE(frame->state(), Freshness::Current);
    QVERIFY(!frame->greyed());
    QVERIFY(panel.exportButton()->isEnabled());
  }

  // Typing 200000 in the slice-size box is one edit: solved once, undone in one step.
  void aTypedSliceSizeIsOneUndoStep() {
    waitIdle();
    const Tokens before = c().config().slice_size;
    QUndoStack* undo = window_->undoStack();
    const int steps = undo->index();  // the steps done (undone ones above go with a new one)
    QSpinBox* box = window_->configPanel()->sliceSpin();
    box->setFocus();
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, QStringLiteral("200000"));
    QCOMPARE(c().config().slice_size, before);  // nothing solved while typing
    QCOMPARE(undo->index(), steps);
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(c().config().slice_size, Tokens{200000});
    QCOMPARE(undo->index(), steps + 1);
    waitIdle();
    undo->undo();
    QCOMPARE(c().config().slice_size, before);
    QCOMPARE(box->value(), static_cast<int>(before));
    waitIdle();
  }
};

QTEST_MAIN(TestFreshness)
#include "test_freshness.moc"
