// A Hugging Face config.json as the explorer's model: the model list's "From a config.json…" asks
// for the file and leaves the list on the model in use; the controller reads the file through the
// core call the cost model is built with, a bad one shows one error naming the file and the field
// and keeps the previous model, a good one is the model the next solve uses and shows in the list,
// and choosing a preset again replaces it.
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/session_file.h"
#include "open_window.h"
#include "panels/config_panel.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/session_io.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 120000;
const QString kHf = QStringLiteral(SLIMPACK_SAMPLES_DIR "/hf/");

QComboBox* modelList(const ConfigPanel& panel) {
  return qobject_cast<QComboBox*>(panel.fieldOf("model"));
}
}  // namespace

class TestModelFile : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  // The panel alone: the last entry asks for a file and changes nothing else.
  void theLastEntryAsksForAFile() {
    ConfigPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy asked(&panel, &ConfigPanel::modelFileRequested);
    QSignalSpy edited(&panel, &ConfigPanel::configEdited);
    QComboBox* models = modelList(panel);
    QCOMPARE(models->itemText(models->count() - 1), QStringLiteral("From a config.json…"));
    models->setFocus();
    QTest::keyClick(models, Qt::Key_End);
    QCOMPARE(asked.count(), 1);
    QCOMPARE(edited.count(), 0);
    QCOMPARE(models->currentText(), QStringLiteral("llama-3-8b"));
    QVERIFY(panel.spec().hf_config_file.empty());
  }

  // A configuration whose model is a config.json shows it; a preset chosen replaces it.
  void theFileIsAnEntryUntilAPresetIsChosen() {
    ConfigPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ConfigSpec spec;
    spec.hf_config_file = (kHf + "qwen2-tiny.json").toStdString();
    panel.setSpec(spec);
    QComboBox* models = modelList(panel);
    QCOMPARE(models->currentText(), QStringLiteral("qwen2-tiny (config.json)"));
    QCOMPARE(models->itemData(models->currentIndex(), Qt::ToolTipRole).toString(),
             kHf + "qwen2-tiny.json");
    panel.setSpec(spec);  // shown again: still one entry for the file
    QCOMPARE(models->findText(QStringLiteral("qwen2-tiny (config.json)")), models->currentIndex());
    QCOMPARE(models->count(), 5 + 1 + 2);  // presets, the file, separator and "From a config.json…"

    QSignalSpy edited(&panel, &ConfigPanel::configEdited);
    models->setFocus();
    QTest::keyClick(models, Qt::Key_Home);  // the first preset
    QCOMPARE(edited.count(), 1);
    const auto chosen = edited.takeFirst().at(0).value<ConfigSpec>();
    QVERIFY(chosen.hf_config_file.empty());
    QCOMPARE(QString::fromStdString(chosen.model), models->itemText(0));
    panel.setSpec(chosen);
    QCOMPARE(models->findText(QStringLiteral("qwen2-tiny (config.json)")), -1);
  }

  void initWindow() {
    QVERIFY(QDir::setCurrent(QStringLiteral(SLIMPACK_SOURCE_DIR)));
    window_ = openTestWindow(dir_, settings_);
    SessionFile s;  // a small session, so that each solve is quick
    s.workload.preset = "chat-sft";
    s.workload.batch_tokens = 65536;
    s.config.pp = 2;
    s.config.strategy = "sliced";
    window_->session().applySession(s);
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && c.snapshot()->workload == s.workload && !c.busy(),
                             kTimeoutMs);
  }

  // A bad config.json: one error naming the file and the field; the model stays.
  void aBadFileKeepsTheModel() {
    ExplorerController& c = window_->controller();
    const SnapshotPtr before = c.snapshot();
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    const QString bad = QStringLiteral(SLIMPACK_SOURCE_DIR "/tests/cli/bad/hf/missing-layers.json");
    c.setModelFile(bad);
    QTRY_VERIFY_WITH_TIMEOUT(errors.count() >= 1 && !c.busy(), kTimeoutMs);
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.at(0).at(0).toString().contains("missing-layers.json"));
    QVERIFY2(
        errors.at(0).at(1).toString().contains("missing-layers.json: num_hidden_layers: missing"),
        qPrintable(errors.at(0).at(1).toString()));
    QVERIFY(c.config().hf_config_file.empty());
    QCOMPARE(c.config().model, std::string("llama-3-8b"));
    QVERIFY(c.snapshot() == before);
    QCOMPARE(modelList(*window_->configPanel())->currentText(), QStringLiteral("llama-3-8b"));
  }

  // A good one is the model of the next solve, shown in the list; a preset replaces it.
  void aGoodFileIsTheModel() {
    ExplorerController& c = window_->controller();
    const QString good = kHf + "llama-tiny.json";
    c.setModelFile(good);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->config.hf_config_file == good.toStdString(),
                             kTimeoutMs);
    QCOMPARE(c.snapshot()->cost->model().name, std::string("llama-tiny"));
    QCOMPARE(c.snapshot()->cost->model().source, "hf-config:" + good.toStdString());
    QComboBox* models = modelList(*window_->configPanel());
    QCOMPARE(models->currentText(), QStringLiteral("llama-tiny (config.json)"));
    // The session keeps it.
    QCOMPARE(window_->session().currentSession().config.hf_config_file, good.toStdString());

    ConfigSpec preset = c.config();
    preset.hf_config_file.clear();
    c.setConfig(preset);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->config.hf_config_file.empty(), kTimeoutMs);
    QCOMPARE(c.snapshot()->cost->model().name, std::string("llama-3-8b"));
    QCOMPARE(models->currentText(), QStringLiteral("llama-3-8b"));
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestModelFile)
#include "test_model_file.moc"
