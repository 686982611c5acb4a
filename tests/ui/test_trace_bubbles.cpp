// The Traces tab's Bubbles view: the sample run opened against its plan (File > Open Run…), the
// Bubbles button shows the per-stage table, whose every figure is core/app's trace_pipeline_run
// on the same run, request and simulation (what `slimpack trace pipeline` prints), and run A's
// timeline is painted with the bubbles' colours while the panel shows.
#include <QAbstractItemModelTester>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include "app/trace_pipeline.h"
#include "app/trace_pipeline_report.h"
#include "jobs/job_tracker.h"
#include "trace/bubble_model.h"
#include "trace/bubble_panel.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_view.h"
#include "trace_test_support.h"
#include "window/trace_hooks.h"

using namespace slimpack;
using namespace slimpack::ui;
using namespace trace_test;

class TestTraceBubbles : public trace_test::TraceWindowTest {
  Q_OBJECT
 private slots:
  void initTestCase() { openWindow(kTimeoutMs); }
  void cleanupTestCase() { window_.reset(); }

  void tableShowsTheCoresNumbers() {
    auto* hooks = window_->findChild<TraceHooks*>();
    QVERIFY(hooks);
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    hooks->openRun({QStringLiteral(SLIMPACK_SAMPLES_DIR "/runs/calibrate")});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    SimCheckPanel* check = ws().simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(check->check().has_value() && !check->jobs().busy(), kTimeoutMs);
    QVERIFY(!ws().viewA()->hasOverlay());

    BubblePanel* panel = ws().bubblePanel();
    QVERIFY(panel->isHidden());
    auto* button = ws().findChild<QPushButton*>(QStringLiteral("traceBubblesButton"));
    QVERIFY(button);
    QSignalSpy analysed(panel, &BubblePanel::analysed);
    button->click();
    QVERIFY(panel->isVisible());
    QVERIFY(ws().simCheckVisible());
    QTRY_VERIFY_WITH_TIMEOUT(panel->result() && !panel->jobs().busy(), kTimeoutMs);

    // The core's own call on the same run, request and simulation.
    const SnapshotPtr snap = check->simulation();
    QVERIFY(snap && snap->plan);
    auto core = trace_pipeline_run(*check->measured(), check->request(), *snap->plan, snap->sim,
                                   snap->cost.get());
    QVERIFY2(core, core ? "" : core.error().message.c_str());
    BubbleModel* model = panel->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 2 * static_cast<int>(core->measured.stages.size()));
    auto raw = [&](int row, int column) {
      return model->index(row, column).data(BubbleModel::MicrosecondsRole).toDouble();
    };
    const std::pair<int, BubbleCause> causes[] = {
        {BubbleModel::Dependency, BubbleCause::Dependency},
        {BubbleModel::Transfer, BubbleCause::Transfer},
        {BubbleModel::Fill, BubbleCause::Fill},
        {BubbleModel::Other, BubbleCause::Other}};
    for (std::size_t s = 0; s < core->measured.stages.size(); ++s) {
      const int row = 2 * static_cast<int>(s);
      for (const auto& [run, bubbles] : {std::pair{0, &core->measured}, {1, &core->simulated}}) {
        const StageBubbles& st = bubbles->stages[s];
        QCOMPARE(model->index(row + run, BubbleModel::Stage).data().toString(),
                 QString::number(st.stage));
        QCOMPARE(model->index(row + run, BubbleModel::Run).data().toString(),
                 run == 0 ? QStringLiteral("measured") : QStringLiteral("simulated"));
        QCOMPARE(raw(row + run, BubbleModel::Busy), st.busy_us);
        QCOMPARE(raw(row + run, BubbleModel::Idle), st.idle_us);
        for (const auto& [column, cause] : causes)
          QCOMPARE(raw(row + run, column), st.cause_us(cause));
        // The text is the one formatter's, as the CLI prints it.
        QCOMPARE(model->index(row + run, BubbleModel::Busy).data().toString(),
                 QString::fromStdString(bubble_time_text(st.busy_us)));
        QCOMPARE(model->index(row + run, BubbleModel::Other).data().toString(),
                 QString::fromStdString(bubble_time_text(st.cause_us(BubbleCause::Other))));
      }
    }
    // The sample run waits longest on stage 0 for B1 of stage 1: the line names both.
    QVERIFY2(panel->summaryText().contains(QStringLiteral("stage 0 B1 waited")),
             qPrintable(panel->summaryText()));
    QVERIFY(panel->summaryText().contains(QStringLiteral("for stage 1 B1")));
    QVERIFY(panel->summaryText().contains(QStringLiteral("Critical path: stage 0: F1..F4")));

    // Run A's timeline is painted over while the panel shows, and plain again once it hides.
    TraceView* view = ws().viewA();
    QVERIFY(view->hasOverlay());
    window_->resize(1800, 1150);  // the guide's picture: room for every pane
    QApplication::processEvents();
    view->fitToWindow();
    shoot(&ws(), "trace-bubbles.png");
    const QImage with = view->grab().toImage();
    auto paint = [panel, view](QPainter& p) {
      BubbleOverlay overlay;
      overlay.setResult(panel->result());
      overlay.paint(p, *view);
    };
    view->setOverlay({});
    QVERIFY(view->grab().toImage() != with);
    view->setOverlay(paint);
    QCOMPARE(view->grab().toImage(), with);
    button->click();
    QVERIFY(panel->isHidden());
    QVERIFY(!view->hasOverlay());
  }

  // A run of PyTorch's pipeline runtime, mapped with the torch-pp rules picked in the measured-vs-
  // simulated panel: the Bubbles view follows the panel's request, and its units' ranges are cut
  // at their first operator (the receive waits inside them), as `slimpack trace pipeline` does.
  void aTorchRunFollowsThePanelsRules() {
    auto* hooks = window_->findChild<TraceHooks*>();
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    hooks->openRun({QStringLiteral(SLIMPACK_SAMPLES_DIR "/runs/torch-pp")});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    ws().setBubblesVisible(true);
    SimCheckPanel* check = ws().simCheck();
    QVERIFY(check->setRuleSet(QStringLiteral("torch-pp")));
    BubblePanel* panel = ws().bubblePanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->result() && panel->result()->rule_set == "torch-pp" &&
                                 !panel->jobs().busy() && !check->jobs().busy(),
                             kTimeoutMs);
    QCOMPARE(panel->result()->messages, std::string("waits inside units"));
    const SnapshotPtr snap = check->simulation();
    auto core = trace_pipeline_run(*check->measured(), check->request(), *snap->plan, snap->sim,
                                   snap->cost.get());
    QVERIFY2(core, core ? "" : core.error().message.c_str());
    for (std::size_t s = 0; s < core->measured.stages.size(); ++s) {
      const StageBubbles& st = core->measured.stages[s];
      const int row = 2 * static_cast<int>(s);
      QCOMPARE(panel->model()
                   ->index(row, BubbleModel::Busy)
                   .data(BubbleModel::MicrosecondsRole)
                   .toDouble(),
               st.busy_us);
      QCOMPARE(panel->model()
                   ->index(row, BubbleModel::Dependency)
                   .data(BubbleModel::MicrosecondsRole)
                   .toDouble(),
               st.cause_us(BubbleCause::Dependency));
    }
    QVERIFY(ws().viewA()->hasOverlay());
  }
};

QTEST_MAIN(TestTraceBubbles)
#include "test_trace_bubbles.moc"
