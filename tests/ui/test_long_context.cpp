// The long-context controls of the configuration panel (context window, activation recompute,
// context parallelism, stage layers), driven with key events as a user types: each reaches the
// configuration and the result, a typing mistake is marked on the field and changes nothing, a
// split that does not sum to the model's layers shows the failure banner, and Ctrl+Z undoes.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "panels/config_panel.h"
#include "panels/state_frame.h"
#include "type_into.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 60000;

using testing::typeInto;
}  // namespace

class TestLongContext : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

  ExplorerController& c() { return window_->controller(); }
  ConfigPanel* panel() { return window_->configPanel(); }
  void waitIdle() { QTRY_VERIFY_WITH_TIMEOUT(c().snapshot() && !c().busy(), kTimeoutMs); }
  double iterationTime() { return c().snapshot()->sim.iteration_time; }

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
  void init() {
    if (c().config() == ConfigSpec{}) return;
    c().resetToDefaults();
    waitIdle();
  }

  void defaultsShowWhatTheCliDefaultsAre() {
    waitIdle();
    QCOMPARE(panel()->contextBox()->text(), QStringLiteral("auto"));
    QCOMPARE(panel()->recomputeBox()->currentText(), QStringLiteral("auto"));
    QCOMPARE(panel()->cpBox()->value(), 1);
    QCOMPARE(panel()->stageLayersEdit()->text(), QStringLiteral("auto"));
  }

  void contextParallelismReachesTheResult() {
    waitIdle();
    const double before = iterationTime();
    typeInto(panel()->cpBox(), 2);
    QCOMPARE(c().config().cp, 2);
    QTRY_VERIFY_WITH_TIMEOUT(!c().busy() && c().snapshot()->config.cp == 2, kTimeoutMs);
    QCOMPARE(c().resultState(), ResultState::Current);
    // Each sequence's work is split over two GPUs more: the iteration is shorter.
    QVERIFY2(iterationTime() < before,
             qPrintable(QString("%1 vs %2").arg(iterationTime()).arg(before)));
  }

  void fullRecomputeCostsTimeAndUndoRestores() {
    waitIdle();
    const double before = iterationTime();
    QLineEdit* edit = panel()->recomputeBox()->lineEdit();
    typeInto(edit, QStringLiteral("full"));
    QCOMPARE(c().config().recompute.mode, RecomputeMode::Full);
    QTRY_VERIFY_WITH_TIMEOUT(
        !c().busy() && c().snapshot()->config.recompute.mode == RecomputeMode::Full, kTimeoutMs);
    // Every backward runs one more forward of its layers.
    QVERIFY(iterationTime() > before);
    window_->activateWindow();
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(c().config().recompute.mode, RecomputeMode::Auto);
    QCOMPARE(panel()->recomputeBox()->currentText(), QStringLiteral("auto"));
  }

  void aTypingMistakeIsMarkedAndChangesNothing() {
    waitIdle();
    const ConfigSpec before = c().config();
    QLineEdit* edit = panel()->recomputeBox()->lineEdit();
    typeInto(edit, QStringLiteral("most"));
    QCOMPARE(c().config(), before);
    QVERIFY(panel()->recomputeBox()->styleSheet().contains("background"));
    QVERIFY(panel()->recomputeBox()->toolTip().contains("most"));
    typeInto(panel()->stageLayersEdit(), QStringLiteral("8,x"));
    QCOMPARE(c().config(), before);
    QVERIFY(panel()->stageLayersEdit()->toolTip().contains("'x'"));
    // Fixing the field clears the mark.
    typeInto(edit, QStringLiteral("none"));
    QCOMPARE(c().config().recompute.mode, RecomputeMode::None);
    QVERIFY(panel()->recomputeBox()->styleSheet().isEmpty());
  }

  void aSplitThatDoesNotSumToTheLayersShowsTheBanner() {
    waitIdle();
    typeInto(panel()->stageLayersEdit(), QStringLiteral("7,8,8,8"));  // Llama-3-8B has 32
    QCOMPARE(c().config().stage_split.explicit_layers, (std::vector<int>{7, 8, 8, 8}));
    QTRY_COMPARE_WITH_TIMEOUT(c().resultState(), ResultState::Failed, kTimeoutMs);
    QVERIFY(window_->ganttFrame()->banner()->isVisible());
    QVERIFY2(window_->ganttFrame()->bannerText().contains("31"),
             qPrintable(window_->ganttFrame()->bannerText()));
    // The hint comes from the typed field, not from the words: it names the option to change.
    QCOMPARE(c().resultError().kind, ErrorKind::BadInput);
    QCOMPARE(QString::fromStdString(c().resultError().field), QStringLiteral("--stage-layers"));
    QVERIFY2(window_->ganttFrame()->bannerText().contains("Change --stage-layers"),
             qPrintable(window_->ganttFrame()->bannerText()));
    // ... and the panel marks that field, with the reason as its tooltip.
    QCOMPARE(panel()->markedField(), static_cast<QWidget*>(panel()->stageLayersEdit()));
    QVERIFY(panel()->stageLayersEdit()->styleSheet().contains("background"));
    QVERIFY(panel()->stageLayersEdit()->toolTip().contains("31"));
    typeInto(panel()->stageLayersEdit(), QStringLiteral("7,8,8,9"));
    QTRY_COMPARE_WITH_TIMEOUT(c().resultState(), ResultState::Current, kTimeoutMs);
    QCOMPARE(panel()->markedField(), nullptr);
    QVERIFY(panel()->stageLayersEdit()->styleSheet().isEmpty());
    QVERIFY(!panel()->stageLayersEdit()->toolTip().contains("31"));
  }
};

QTEST_MAIN(TestLongContext)
#include "test_long_context.moc"
