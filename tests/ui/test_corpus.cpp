// The explorer keeps the open session on every file of the malformed-input corpus
// (tests/cli/bad), opened with File > Open (MainWindow::openFile) or dropped on the window: one
// error naming the file, no crash, and the workload, configuration, plan file, view and result that
// were there before are still there.
#include <QDir>
#include <QDirIterator>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/session_file.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/session_io.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 120000;
const QString kCorpus = QStringLiteral(SLIMPACK_SOURCE_DIR "/tests/cli/bad");

void dropFile(QWidget* target, const QString& path) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &enter);
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &drop);
}

// Every bad file of every kind (valid/ holds the edge cases that must load). runs/ holds traces
// that are only bad as a rank of a given plan (the CLI's --check-trace against
// calibrate-plan.json); the explorer opens them as traces, and its measured-vs-simulated panel
// reports the same message (tests/ui/test_traces.cpp).
QStringList corpusFiles() {
  QStringList files;
  QDirIterator it(kCorpus, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    if (path.contains("/valid/") || path.contains("/runs/") || path.endsWith(".py") ||
        path.endsWith(".cmake"))
      continue;
    files << path;
  }
  files.sort();
  return files;
}
}  // namespace

class TestCorpus : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() {
    QVERIFY(
        QDir::setCurrent(QStringLiteral(SLIMPACK_SOURCE_DIR)));  // sessions name files from here
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->resize(1200, 800);
    window_->show();
    // A small session of our own, so that each check waits on little work.
    SessionFile s;
    s.workload.preset = "chat-sft";
    s.workload.seed = 3;
    s.workload.batch_tokens = 65536;
    s.config.pp = 2;
    s.config.strategy = "sliced";
    s.view.saved_views = {{"start", 0.0, 0.1, "gantt", -1}};
    window_->session().applySession(s);
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && c.snapshot()->workload == s.workload && !c.busy(),
                             kTimeoutMs);
  }
  void cleanupTestCase() { window_.reset(); }

  // The reader itself: integers that do not fit their field, or absurd parallel degrees, are
  // refused by JSON path (pp 4294967298 used to wrap to 2).
  void sessionNumbersOutOfRangeAreRefused() {
    const auto error_of = [](const std::string& config) {
      auto s = session_from_json(
          R"({"format": "slimpack-session", "version": 1, "config": )" + config + "}",
          "s.slimpack");
      return s ? std::string("(read)") : s.error().message;
    };
    QCOMPARE(error_of(R"({"pp": 4294967298})"),
             std::string("s.slimpack: $.config.pp: 4294967298 is more than the maximum 4096"));
    QCOMPARE(error_of(R"({"tp": 1000000000})"),
             std::string("s.slimpack: $.config.tp: 1000000000 is more than the maximum 4096"));
    QCOMPARE(error_of(R"({"vchunks": 5000})"),
             std::string("s.slimpack: $.config.vchunks: 5000 is more than the maximum 4096"));
    QCOMPARE(error_of(R"({"pp": 8, "dp": 4096, "tp": 1})"), std::string("(read)"));
  }

  void corpusIsThere() { QVERIFY2(corpusFiles().size() >= 100, qPrintable(kCorpus)); }

  void badFileKeepsTheSession_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("drop");
    for (const QString& path : corpusFiles()) {
      const QString name = QDir(kCorpus).relativeFilePath(path);
      QTest::newRow(qPrintable("open " + name)) << path << false;
      QTest::newRow(qPrintable("drop " + name)) << path << true;
    }
  }

  void badFileKeepsTheSession() {
    QFETCH(QString, path);
    QFETCH(bool, drop);
    ExplorerController& c = window_->controller();
    const SnapshotPtr before = c.snapshot();
    const SessionFile session = window_->session().currentSession();
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);

    if (drop)
      dropFile(window_.get(), path);
    else
      window_->session().openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(errors.count() >= 1 && !c.busy(), kTimeoutMs);

    QCOMPARE(errors.count(), 1);
    const QString name = QFileInfo(path).fileName();
    const QString message = errors.at(0).at(1).toString();
    QVERIFY2(message.contains(name), qPrintable(message));
    QVERIFY(c.snapshot() == before);
    const SessionFile after = window_->session().currentSession();
    QVERIFY(after.workload == session.workload);
    QVERIFY(after.config == session.config);
    QCOMPARE(after.plan_file, session.plan_file);
    QVERIFY(after.view == session.view);
  }
};

QTEST_MAIN(TestCorpus)
#include "test_corpus.moc"
