// The explorer as a new user meets it, driven through the real widgets with QTest key
// and mouse events: infeasible settings show a banner over the greyed previous picture and no
// stale numbers; a new result re-fits a fitted view and keeps a zoomed one; Ctrl+Z restores the
// previous configuration and picture; Escape cancels a running job from anywhere; the window at
// 1280x720 and 1366x768 has no clipped labels; --open-session restores a session; stale sweep and
// comparison results are marked; an opened plan disables the controls it fixes.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

#include "gantt/gantt_pane.h"
#include "gantt/gantt_view.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "type_into.h"
#include "window/explorer_args.h"
#include "window/explorer_controller.h"
#include "window/help_dialogs.h"
#include "window/main_window.h"
#include "window/saved_views.h"
#include "window/session_io.h"
#include "window/settings.h"
#include "window/status_line.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 60000;

using testing::typeInto;

// Labels whose text is wider than the label: cut ("...") or clipped on screen.
QStringList clippedLabels(QWidget* root) {
  QStringList out;
  for (QLabel* l : root->findChildren<QLabel*>()) {
    if (!l->isVisible() || l->wordWrap() || l->text().isEmpty() || !l->pixmap().isNull()) continue;
    if (Qt::mightBeRichText(l->text())) continue;  // rich text wraps or elides by design
    // Inside a scroll area a label may be wider than the viewport: the user scrolls to it.
    const int need = l->fontMetrics().horizontalAdvance(l->text());
    if (need > l->contentsRect().width())
      out << QStringLiteral("'%1' needs %2 px, has %3")
                 .arg(l->text())
                 .arg(need)
                 .arg(l->contentsRect().width());
  }
  for (QAbstractButton* b : root->findChildren<QAbstractButton*>()) {
    if (!b->isVisible() || b->text().isEmpty() || qobject_cast<QDockWidget*>(b->parent())) continue;
    if (b->sizeHint().width() > b->width() + 1)
      out << QStringLiteral("button '%1' needs %2 px, has %3")
                 .arg(b->text())
                 .arg(b->sizeHint().width())
                 .arg(b->width());
  }
  return out;
}
}  // namespace

class TestNewUser : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

  ExplorerController& c() { return window_->controller(); }
  void waitIdle() { QTRY_VERIFY_WITH_TIMEOUT(c().snapshot() && !c().busy(), kTimeoutMs); }

 private slots:
  void initTestCase() {
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanupTestCase() { window_.reset(); }
  // Every test starts from the defaults, whatever the previous one left (Edit > Reset to
  // Defaults is itself a user command).
  void init() {
    if (c().config() == ConfigSpec{} && c().workload() == WorkloadSpec{}) return;
    c().resetToDefaults();
    waitIdle();
    window_->ganttView()->fitToWindow();
  }

  void infeasibleSettingsShowTheBannerAndNoStaleNumbers() {
    waitIdle();
    QCOMPARE(c().resultState(), ResultState::Current);
    QVERIFY(!window_->ganttFrame()->banner()->isVisible());
    // Recompute none first: with the default (auto) recomputation t = 2 fits.
    typeInto(window_->configPanel()->recomputeBox()->lineEdit(), QStringLiteral("none"));
    QCOMPARE(c().config().recompute.mode, RecomputeMode::None);
    waitIdle();
    QCOMPARE(c().resultState(), ResultState::Current);
    const SnapshotPtr good = c().snapshot();
    // t = 2 without recomputation: the default workload's 120K-token sequences do not fit an
    // 80 GB stage.
    typeInto(window_->configPanel()->tpBox(), 2);
    // At once, before any result: the views know they are computing (the tag shows after a
    // short delay so that slider drags do not flicker).
    QCOMPARE(c().resultState(), ResultState::Computing);
    QCOMPARE(window_->ganttFrame()->state(), StateFrame::State::Computing);
    QVERIFY(!window_->ganttFrame()->greyed());
    QTRY_COMPARE_WITH_TIMEOUT(c().resultState(), ResultState::Failed, kTimeoutMs);
    QCOMPARE(c().config().tp, 2);
    for (StateFrame* f : {window_->ganttFrame(), window_->metricsFrame(), window_->memoryFrame()}) {
      QCOMPARE(f->state(), StateFrame::State::Failed);
      QVERIFY(f->banner()->isVisible());
      QVERIFY(f->greyed());  // the old numbers are greyed, never presented as current
      const QString text = f->bannerText();
      QVERIFY2(text.startsWith("Not solved for the current settings"), qPrintable(text));
      QVERIFY2(text.contains("previous settings") && text.contains("t=8"), qPrintable(text));
      QVERIFY2(!text.contains(" bytes"), qPrintable(text));  // GB, not raw byte counts
    }
    QVERIFY(window_->statusLine().resultLabel()->text().contains("Not solved"));
    // The status bar says the reason, not the banner's "Greyed" sentence.
    QVERIFY(!window_->statusLine().resultLabel()->text().contains("Greyed"));
    // The failure as values: a stage over the memory cap, and the hint that follows from it.
    QCOMPARE(c().resultError().kind, ErrorKind::Infeasible);
    QVERIFY(c().resultError().detail.has_value());
    QCOMPARE(c().resultError().detail->limit, Limit::StageMemory);
    QVERIFY(c().resultError().detail->needed > c().resultError().detail->cap);
    QVERIFY(window_->ganttFrame()->bannerText().contains("higher memory cap"));
    QVERIFY(!window_->statusLine().resultLabel()->text().contains("iteration"));
    QVERIFY(c().snapshot() == good);  // kept, greyed, for comparison

    // Ctrl+Z brings t = 8 back, and its picture: the banner goes, the numbers are current.
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c().config().tp, 8);
    QCOMPARE(window_->configPanel()->tpBox()->value(), 8);
    QTRY_COMPARE_WITH_TIMEOUT(c().resultState(), ResultState::Current, kTimeoutMs);
    waitIdle();
    QVERIFY(!window_->ganttFrame()->banner()->isVisible());
    QVERIFY(!window_->metricsFrame()->greyed());
    QCOMPARE(c().snapshot()->sim.iteration_time, good->sim.iteration_time);
  }

  void ctrlZRestoresThePreviousConfigurationAndPicture() {
    waitIdle();
    const ConfigSpec before = c().config();
    const double time_before = c().snapshot()->sim.iteration_time;
    const TimeRange extent_before = window_->ganttView()->model()->time_extent();
    // A user edit through the spin box's arrow keys: S steps from auto to 512, then 1K.
    QSpinBox* s = window_->configPanel()->sliceSpin();
    s->setFocus();
    QTest::keyClick(s, Qt::Key_Up);
    QCOMPARE(c().config().slice_size, Tokens{512});
    QTest::keyClick(s, Qt::Key_Up);
    QCOMPARE(c().config().slice_size, Tokens{1024});
    waitIdle();
    QCOMPARE(c().snapshot()->config.slice_size, Tokens{1024});
    QVERIFY(window_->undoStack()->canUndo());
    QCOMPARE(window_->undoStack()->undoText(), QStringLiteral("Slice Size"));

    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c().config().slice_size, Tokens{512});  // one step back
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(c().config() == before);
    QCOMPARE(s->value(), 0);  // the spin box reads "auto" again
    waitIdle();
    QCOMPARE(c().snapshot()->sim.iteration_time, time_before);
    QCOMPARE(window_->ganttView()->model()->time_extent().t1, extent_before.t1);
    // Redo goes forward again.
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(c().config().slice_size, Tokens{512});
    waitIdle();
    QTest::keyClick(window_.get(), Qt::Key_Y, Qt::ControlModifier);
    QCOMPARE(c().config().slice_size, Tokens{1024});
    waitIdle();
  }

  void aNewResultRefitsAFittedViewAndKeepsAZoomedOne() {
    waitIdle();
    GanttView* g = window_->ganttView();
    QVERIFY(g->isFitted());
    const double old_end = g->model()->time_extent().t1;
    // A bigger batch: a longer iteration; the fitted view follows it.
    QSpinBox* batch = window_->workloadPanel()->batchBox();
    typeInto(batch, 2048);
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && c().snapshot()->workload.batch_tokens == 2048 * 1024,
                             kTimeoutMs);
    const TimeRange e = g->model()->time_extent();
    QVERIFY(e.t1 > old_end * 1.3);
    QVERIFY(g->isFitted());
    QVERIFY(g->viewRange().t0 <= e.t0 && g->viewRange().t1 >= e.t1);
    QVERIFY(window_->ganttPane()->zoomLabel()->text().startsWith("Whole iteration"));

    // The user zooms in with the keyboard: the next result keeps that range, and says so.
    g->setFocus();
    QTest::keyClick(g, Qt::Key_Plus);
    QTest::keyClick(g, Qt::Key_Plus);
    QVERIFY(!g->isFitted());
    const TimeRange zoomed = g->viewRange();
    QScrollBar* bar = window_->ganttPane()->scrollBar();
    QVERIFY(bar->pageStep() < GanttPane::kScrollSteps / 2);  // the bar shows a part
    QVERIFY(window_->ganttPane()->zoomLabel()->text().startsWith("Zoomed"));
    typeInto(window_->workloadPanel()->findChild<QSpinBox*>(), 7);  // another seed
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && c().snapshot()->workload.seed == 7, kTimeoutMs);
    QVERIFY(g->viewRange() == zoomed);
    // Dragging the scroll bar pans.
    bar->setValue(bar->maximum());
    QVERIFY(g->viewRange().t0 > zoomed.t0);
    // Ctrl+0 fits, and the following results are fitted again.
    QTest::keyClick(window_.get(), Qt::Key_0, Qt::ControlModifier);
    QVERIFY(g->isFitted());
    window_->undoStack()->undo();  // seed
    window_->undoStack()->undo();  // batch budget
    waitIdle();
    QVERIFY(g->isFitted());
    QVERIFY(g->viewRange().t1 < e.t1);
  }

  void escapeCancelsTheRunningJobFromAnywhere() {
    waitIdle();
    GanttView* g = window_->ganttView();
    // Pin a sequence by clicking a bar of stage 0.
    const GanttLayout l = g->currentLayout();
    QPoint at;
    for (int x = l.plot.left() + 2; x < l.plot.right() && at.isNull(); x += 3)
      if (g->barAt(QPoint(x, l.bar_band(0).center().y())).valid())
        at = QPoint(x, l.bar_band(0).center().y());
    QVERIFY(!at.isNull());
    QTest::mouseClick(g, Qt::LeftButton, {}, at);
    const int pinned = g->pinnedSequence();
    QVERIFY(pinned >= 0);
    // A sweep runs (the worker cannot finish before the event loop runs again).
    window_->sweepPanel()->findChild<QAbstractButton*>()->click();
    QVERIFY(c().sweepJobs().busy());
    g->setFocus();
    QTest::keyClick(g, Qt::Key_Escape);
    QVERIFY(!c().sweepJobs().busy());
    QCOMPARE(g->pinnedSequence(), pinned);  // the key cancelled, it did not also unpin
    // From a spin box too.
    window_->sweepPanel()->findChild<QAbstractButton*>()->click();
    QVERIFY(c().sweepJobs().busy());
    QSpinBox* pp = window_->configPanel()->ppBox();
    pp->setFocus();
    QTest::keyClick(pp, Qt::Key_Escape);
    QVERIFY(!c().sweepJobs().busy());
    // With nothing running, Escape in the Gantt unpins as before.
    QTest::keyClick(g, Qt::Key_Escape);
    QCOMPARE(g->pinnedSequence(), -1);
    // A cancelled solve: the views say the picture is the previous settings'.
    typeInto(window_->configPanel()->ppBox(), 5);
    QVERIFY(c().busy());
    QTest::keyClick(pp, Qt::Key_Escape);
    QCOMPARE(c().resultState(), ResultState::Cancelled);
    QCOMPARE(window_->ganttFrame()->state(), StateFrame::State::Stale);
    QVERIFY(window_->ganttFrame()->bannerText().startsWith("Cancelled"));
    window_->undoStack()->undo();
    waitIdle();
    QCOMPARE(c().resultState(), ResultState::Current);
  }

  void staleComparisonAndSweepAreMarked() {
    waitIdle();
    CompareView* cmp = window_->compareView();
    window_->showView("compare");
    cmp->findChild<QPushButton*>()->click();
    QVERIFY(cmp->resultFrame()->state() == StateFrame::State::Computing);
    QTRY_VERIFY_WITH_TIMEOUT(!c().compareJobs().busy() && !cmp->entries().empty(), kTimeoutMs);
    QCOMPARE(cmp->resultFrame()->state(), StateFrame::State::Current);
    // A new length file: the comparison was for the old workload.
    window_->session().openFile(
        QStringLiteral(SLIMPACK_SAMPLES_DIR "/lengths/chat_sft_lengths.csv"));
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && !c().snapshot()->workload.file.empty(), kTimeoutMs);
    QCOMPARE(cmp->resultFrame()->state(), StateFrame::State::Stale);
    QVERIFY(cmp->resultFrame()->greyed());
    QVERIFY(cmp->resultFrame()->bannerText().contains("press Compare"));
    // A cancelled comparison does not promise a result forever.
    cmp->findChild<QPushButton*>()->click();
    QCOMPARE(cmp->messageLabel()->text(), QStringLiteral("comparing…"));
    QTest::keyClick(cmp, Qt::Key_Escape);
    QVERIFY(!c().compareJobs().busy());
    QVERIFY(cmp->messageLabel()->text() != QStringLiteral("comparing…"));
    QCOMPARE(cmp->resultFrame()->state(), StateFrame::State::Stale);
    window_->showView("gantt");
    window_->undoStack()->undo();  // back to the preset
    waitIdle();
  }

  void anOpenedPlanDisablesTheControlsItFixes() {
    waitIdle();
    const QString plan = QStringLiteral(SLIMPACK_SAMPLES_DIR "/plans/analytic-1f1b.json");
    window_->session().openFile(plan);
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && c().snapshot()->plan_file == plan.toStdString(),
                             kTimeoutMs);
    ConfigPanel* cfg = window_->configPanel();
    QVERIFY(!cfg->ppBox()->isEnabled());
    QVERIFY(!cfg->sliceSlider()->isEnabled());
    QVERIFY(cfg->tpBox()->isEnabled());  // t re-simulates the plan
    QVERIFY(cfg->noteLabel()->isVisible());
    QVERIFY(cfg->noteLabel()->text().contains("analytic-1f1b.json"));
    QVERIFY(window_->workloadPanel()->sourceBox()->currentText().contains("analytic-1f1b.json"));
    QCOMPARE(window_->windowTitle(), QStringLiteral("analytic-1f1b.json"));
    // The sweep (its dock is open) was computed for the plan's batch.
    SweepPanel* sweep = window_->sweepPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!c().sweepJobs().busy() && sweep->hasPoints(), kTimeoutMs);
    QVERIFY(!sweep->isStaleFor(c().workload(), c().config(), plan.toStdString()));
    // Run > Solve the Workload: controls live again, the title no longer names the plan, and
    // the sweep is no longer the plan's (it re-runs for the workload).
    c().clearPlan();
    QVERIFY(sweep->isStaleFor(c().workload(), c().config(), std::string()));
    waitIdle();
    QTRY_VERIFY_WITH_TIMEOUT(!c().sweepJobs().busy(), kTimeoutMs);
    QVERIFY(!sweep->isStaleFor(c().workload(), c().config(), std::string()));
    QCOMPARE(sweep->resultFrame()->state(), StateFrame::State::Current);
    QVERIFY(cfg->ppBox()->isEnabled());
    QVERIFY(!cfg->noteLabel()->isVisible());
    QVERIFY(!window_->windowTitle().contains("analytic"));
    QVERIFY(!window_->workloadPanel()->sourceBox()->currentText().contains("plan"));
  }

  void theSliderStepsInPowersOfTwoUpToTheLongestSequence() {
    waitIdle();
    QSlider* slider = window_->configPanel()->sliceSlider();
    // The default batch's longest sequence is about 120K tokens: the slider ends at 128K.
    QCOMPARE(ConfigPanel::sliceOfIndex(slider->maximum()), Tokens{128 * 1024});
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Home);
    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(c().config().slice_size, Tokens{512});
    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(c().config().slice_size, Tokens{1024});
    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(c().config().slice_size, Tokens{2048});
    waitIdle();
    QCOMPARE(window_->configPanel()->sliceSpin()->value(), 2048);
    // Back to auto: the chosen S and why are shown under the slider.
    QTest::keyClick(slider, Qt::Key_Home);
    QCOMPARE(c().config().slice_size, Tokens{0});
    waitIdle();
    QVERIFY(window_->configPanel()->autoSliceLabel()->isVisible());
    QVERIFY2(window_->configPanel()->autoSliceLabel()->text().startsWith("auto → S = "),
             qPrintable(window_->configPanel()->autoSliceLabel()->text()));
  }

  void laptopSizesHaveNoClippedLabels() {
    waitIdle();
    for (const QSize size : {QSize(1280, 720), QSize(1366, 768)}) {
      window_->resize(size);
      window_->resetLayout();
      QTest::qWait(50);                 // layout requests are posted events
      QCOMPARE(window_->size(), size);  // the minimum size fits the screen
      const QStringList clipped = clippedLabels(window_.get());
      QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join("; ")));
      // The Gantt keeps a usable share of the window.
      QVERIFY(window_->ganttView()->height() >= 200);
      QVERIFY(window_->ganttView()->width() >= size.width() / 3);
    }
    window_->resize(1400, 900);
  }

  // Bad files get one readable message: a binary file's bytes escaped (no mojibake), a JSON
  // file of another format named as such (not a complaint about length formats).
  void badFilesGetReadableMessages() {
    waitIdle();
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    const QString garbage = dir_.filePath("garbage.csv");
    {
      QFile f(garbage);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray("\xff\xfe\x00\x01PK\x03\x04\n", 10));
    }
    window_->session().openFile(garbage);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    const QString m1 = errors.at(0).at(1).toString();
    QVERIFY2(m1.contains("garbage.csv") && !m1.contains(QChar(0xfffd)), qPrintable(m1));
    const QString other = dir_.filePath("other.json");
    {
      QFile f(other);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(R"({"format": "slimpack-session", "version": 1})");
    }
    window_->session().openFile(other);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, kTimeoutMs);
    const QString m2 = errors.at(1).at(1).toString();
    QVERIFY2(m2.contains("other.json") && m2.contains("$.format") && m2.contains("slimpack-plan"),
             qPrintable(m2));
    QVERIFY(c().workload().file.empty());  // nothing already loaded was lost
  }

  void savedViewsCanBeRenamed() {
    window_->savedViews().saveCurrent();
    const std::size_t i = window_->savedViews().views().size() - 1;
    window_->savedViews().rename(i, QStringLiteral("  warm-up  "));
    QCOMPARE(window_->savedViews().views()[i].name, std::string("warm-up"));
    window_->savedViews().rename(i, QStringLiteral("   "));  // an empty name is refused
    QCOMPARE(window_->savedViews().views()[i].name, std::string("warm-up"));
    window_->savedViews().clear();
  }

  void helpOpensTheBundledGuideAndTheShortcuts() {
    QDialog* guide = showUserGuide(window_.get());
    auto* text = guide->findChild<QTextBrowser*>();
    QVERIFY(text->toPlainText().contains("SlimPack Explorer — user guide"));
    guide->close();
    const QString keys = shortcutListText(window_.get());
    QVERIFY2(keys.contains("Edit > Undo"), qPrintable(keys));
    QVERIFY(keys.contains("Help > User Guide"));
    QVERIFY(keys.contains("View > Fit to Window"));
  }

  void openSessionArgumentRestoresASession() {
    waitIdle();
    // Save a session with S = 4096, start a fresh window with --open-session.
    ConfigSpec cfg = c().config();
    cfg.slice_size = 4096;
    c().setConfig(cfg);
    waitIdle();
    const QString path = dir_.filePath("mine");  // no suffix: ".slimpack" is added
    QVERIFY(window_->session().saveSession(path));
    QVERIFY(QFileInfo::exists(path + ".slimpack"));
    window_->undoStack()->undo();
    const ExplorerArgs args =
        parse_explorer_args({QStringLiteral("slimpack-explorer"), QStringLiteral("--open-session"),
                             path + ".slimpack"});
    QCOMPARE(args.session, path + ".slimpack");
    auto settings = Settings::fromFile(dir_.filePath("second.ini"));
    MainWindow second(*settings);
    second.setErrorDialogsEnabled(false);
    open_from_args(second, args);
    QTRY_VERIFY_WITH_TIMEOUT(second.controller().snapshot() && !second.controller().busy(),
                             kTimeoutMs);
    QCOMPARE(second.controller().config().slice_size, Tokens{4096});
    QCOMPARE(second.controller().snapshot()->config.slice_size, Tokens{4096});
    QCOMPARE(second.windowTitle(), QStringLiteral("mine.slimpack"));
    // The retired spelling is refused with a message that names the new one.
    const char* old_argv[] = {"slimpack-explorer", "--session", "x.slimpack"};
    QVERIFY(QString::fromStdString(retired_option_message(3, old_argv)).contains("--open-session"));
    const char* eq_argv[] = {"slimpack-explorer", "--session=x.slimpack"};
    QVERIFY(!retired_option_message(2, eq_argv).empty());
    const char* ok_argv[] = {"slimpack-explorer", "--open-session", "x.slimpack"};
    QVERIFY(retired_option_message(3, ok_argv).empty());
  }
};

QTEST_MAIN(TestNewUser)
#include "test_newuser.moc"
