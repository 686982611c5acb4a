// Open Recent and trace runs: the ranks of a run opened together are one entry that reopens the
// whole run (from the File menu), and a run opened with "Compare with…" is recorded too.
#include <QFileInfo>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtTest>

#include "jobs/job_tracker.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/session_io.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

QString sample(const char* name) {
  return QFileInfo(QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/") + QString::fromLatin1(name))
      .absoluteFilePath();
}

QMenu* recentMenu(MainWindow& w) {
  for (QMenu* m : w.findChildren<QMenu*>())
    if (m->title() == QStringLiteral("Open &Recent")) return m;
  return nullptr;
}

}  // namespace

class TestTraceRecent : public QObject {
  Q_OBJECT

 private slots:
  void aRunIsOneEntryThatReopensAllItsFiles() {
    QTemporaryDir dir;
    auto settings = Settings::fromFile(dir.filePath(QStringLiteral("settings.ini")));
    MainWindow window(*settings);
    window.setErrorDialogsEnabled(false);
    window.resize(1280, 800);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().snapshot() != nullptr, kTimeoutMs);
    TraceWorkspace& ws = *window.traceWorkspace();
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);

    // Two ranks named in one turn (as on the command line): one run, one entry.
    const QString r0 = sample("ddp/rank0.pt.trace.json");
    const QString r1 = sample("ddp/rank1.pt.trace.json");
    window.session().openFile(r0);
    window.session().openFile(r1);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    QCOMPARE(ws.viewA()->timeline()->sources().size(), std::size_t{2});
    QCOMPARE(settings->recentFiles().front(), r0 + QLatin1Char('\n') + r1);
    QCOMPARE(Settings::recentEntryFiles(settings->recentFiles().front()), (QStringList{r0, r1}));

    // Run B ("Compare with…") is recorded as well.
    const QString b = sample("kineto_small.json");
    ws.openTraces({b}, TraceWorkspace::Slot::B);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, kTimeoutMs);
    QCOMPARE(settings->recentFiles().front(), b);
    QCOMPARE(settings->recentFiles().at(1), r0 + QLatin1Char('\n') + r1);
    QTRY_VERIFY_WITH_TIMEOUT(!ws.busy(), kTimeoutMs);

    // Another file as run A, then the run's entry from the menu: both ranks again.
    ws.openTraces({sample("step_before.json")});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 3, kTimeoutMs);
    QCOMPARE(ws.viewA()->timeline()->sources().size(), std::size_t{1});
    QMenu* recent = recentMenu(window);
    QVERIFY(recent);
    QAction* run = nullptr;
    for (QAction* a : recent->actions())
      if (a->text() == QStringLiteral("rank0.pt.trace.json + 1 more (run)")) run = a;
    QVERIFY(run);
    QCOMPARE(run->toolTip(), r0 + QLatin1Char('\n') + r1);
    run->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 4, kTimeoutMs);
    QCOMPARE(ws.viewA()->timeline()->sources().size(), std::size_t{2});
    QCOMPARE(ws.pathsA(), (QStringList{r0, r1}));
    QTRY_VERIFY_WITH_TIMEOUT(!ws.busy(), kTimeoutMs);
  }
};

QTEST_MAIN(TestTraceRecent)
#include "test_trace_recent.moc"
