// Session files: JSON round trip, atomic write, errors that name the JSON path, and the window's
// save -> open round trip restoring workload, configuration and view.
#include <QLineEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "app/session_file.h"
#include "common/json_util.h"
#include "gantt/gantt_view.h"
#include "panels/search_panel.h"
#include "panels/search_space_editor.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/saved_views.h"
#include "window/session_io.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
SessionFile sample() {
  SessionFile s;
  s.workload.file = "/data/lengths.csv";
  s.workload.column = "tokens";
  s.workload.seed = 7;
  s.workload.batch_tokens = 524288;
  s.config.model = "llama-3-70b";
  s.config.gpu = "h200";
  s.config.pp = 8;
  s.config.dp = 2;
  s.config.tp = 4;
  s.config.strategy = "sliced";
  s.config.slice_size = 8192;
  s.config.packs = 16;
  s.config.schedule = ScheduleKind::GPipe;
  s.config.memory_cap_gb = 70;
  s.workload.batch_count = 12;
  s.config.pack_tokens = 65536;
  s.config.vchunks = 3;
  s.config.token_cap = 131072;
  s.config.cost_profile_file = "/data/h100-profile.json";
  s.config.cost_overrides_file = "/data/costs.json";
  s.config.exact = true;
  s.config.time_limit_s = 5;
  s.config.asymmetric = false;
  s.config.dp_aware = false;
  s.config.dp_merge = false;
  s.config.context = 262144;
  s.config.recompute = {RecomputeMode::Layers, 3};
  s.config.cp = 2;
  s.config.stage_split = {false, {7, 8, 8, 9}};
  s.plan_file = "/data/plan.json";
  s.view.t0 = 0.25;
  s.view.t1 = 1.75;
  s.view.selected_sequence = 3;
  s.view.tab = "search";
  s.view.saved_views = {{"warm-up", 0.0, 0.5, "gantt", 7}, {"steady", 0.5, 1.5, "compare", -1}};
  return s;
}

QString errorOf(const std::string& text) {
  auto r = session_from_json(text, "s.slimpack");
  return r ? QString() : QString::fromStdString(r.error().message);
}
}  // namespace

class TestSession : public QObject {
  Q_OBJECT
 private slots:
  void jsonRoundTrip() {
    const SessionFile s = sample();
    auto back = session_from_json(session_to_json(s), "mem");
    QVERIFY(back);
    QVERIFY(*back == s);
  }

  void defaultsFillMissingSections() {
    auto s = session_from_json(R"({"format":"slimpack-session","version":1})", "x");
    QVERIFY(s);
    QVERIFY(*s == SessionFile{});
  }

  void fileRoundTripIsAtomic() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.slimpack").toStdString();
    QVERIFY(write_session_file(path, sample()).ok());
    auto back = read_session_file(path);
    QVERIFY(back);
    QVERIFY(*back == sample());
    // No temp files left next to it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
  }

  void anUnknownTabIsRefused() {
    const QString e =
        errorOf(R"({"format":"slimpack-session","version":1,"view":{"tab":"settings"}})");
    QVERIFY2(e.contains(QStringLiteral("view.tab")) && e.contains(QStringLiteral("settings")),
             qPrintable(e));
  }

  void errorsNameThePath() {
    QVERIFY(errorOf("{").startsWith("s.slimpack"));
    QVERIFY(errorOf(R"({"format":"slimpack-plan","version":1})").contains("$.format"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":9})").contains("$.version"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"pp":"four"}})")
                .contains("$.config.pp"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"pp":0}})")
                .contains("$.config.pp"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"schedule":"zb"}})")
                .contains("$.config.schedule"));
    QVERIFY(
        errorOf(R"({"format":"slimpack-session","version":1,"view":{"saved_views":[{"t0":1}]}})")
            .contains("$.view.saved_views[0]"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"exact":1}})")
                .contains("$.config.exact: expected true or false"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"vchunks":0}})")
                .contains("$.config.vchunks"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"recompute":"most"}})")
                .contains("$.config.recompute"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"stage_layers":"7,x"}})")
                .contains("$.config.stage_layers"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"cp":0}})")
                .contains("$.config.cp"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"config":{"context":-1}})")
                .contains("$.config.context"));
    QVERIFY(errorOf(R"({"format":"slimpack-session","version":1,"view":{"saved_views":)"
                    R"([{"name":"a","t0":0,"t1":1,"tab":"sweep"}]}})")
                .contains("$.view.saved_views[0].tab: expected \"gantt\" or \"compare\""));
    // Saved views written before "tab" and "selected_sequence" existed still load.
    auto old =
        session_from_json(R"({"format":"slimpack-session","version":1,"view":{"saved_views":)"
                          R"([{"name":"a","t0":0,"t1":1}]}})",
                          "s.slimpack");
    QVERIFY(old);
    QCOMPARE(old->view.saved_views.front().tab, std::string("gantt"));
    QCOMPARE(old->view.saved_views.front().selected_sequence, -1);
  }

  void windowSaveAndOpenRestoresSession() {
    QTemporaryDir dir;
    auto settings = Settings::fromFile(dir.filePath("settings.ini"));
    MainWindow a(*settings);
    a.setErrorDialogsEnabled(false);
    QSignalSpy first(&a.controller(), &ExplorerController::snapshotChanged);
    QTRY_VERIFY_WITH_TIMEOUT(first.count() >= 1, 60000);
    // Change config and workload, zoom in, save a view.
    WorkloadSpec w = a.controller().workload();
    w.seed = 5;
    w.batch_tokens = 256 * 1024;
    ConfigSpec c = a.controller().config();
    c.slice_size = 4096;
    c.pp = 8;
    a.controller().setWorkload(w);
    a.controller().setConfig(c);
    QTRY_VERIFY_WITH_TIMEOUT(a.controller().snapshot()->config == c &&
                                 a.controller().snapshot()->workload == w &&
                                 !a.controller().pipelineJobs().busy(),
                             60000);
    const double end = a.ganttView()->model()->time_extent().t1;
    a.ganttView()->setViewRange(end * 0.25, end * 0.5);
    a.savedViews().saveCurrent();
    // The Search tab's settings, typed into its fields.
    a.searchPanel()->setGpus(16);
    a.searchPanel()->setBatches(2);
    QTest::keyClicks(a.searchPanel()->spaceEditor()->field("pp"), QStringLiteral("2, 4"));
    QTest::keyClicks(a.searchPanel()->spaceEditor()->field("recompute"), QStringLiteral("full"));
    a.showView(QStringLiteral("compare"));  // the tab in front comes back with the session
    QCOMPARE(a.currentTabName(), QStringLiteral("compare"));
    const QString path = dir.filePath("round.slimpack");
    QVERIFY(a.session().saveSession(path));

    MainWindow b(*settings);
    b.setErrorDialogsEnabled(false);
    QSignalSpy errors(&b, &MainWindow::errorShown);
    b.session().openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(b.controller().snapshot() && b.controller().snapshot()->config == c &&
                                 !b.controller().pipelineJobs().busy(),
                             60000);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(b.currentTabName(), QStringLiteral("compare"));
    const SessionFile sa = a.session().currentSession();
    const SessionFile sb = b.session().currentSession();
    QVERIFY(sb.workload == w);
    QVERIFY(sb.config == c);
    QCOMPARE(sb.view.saved_views.size(), std::size_t{1});
    QVERIFY(sb.view.saved_views == sa.view.saved_views);
    QCOMPARE(b.ganttView()->viewRange().t0, end * 0.25);
    QCOMPARE(b.ganttView()->viewRange().t1, end * 0.5);
    QVERIFY(sb.search == sa.search);
    QCOMPARE(sb.search.space.gpus, 16);
    QCOMPARE(sb.search.batches, 2);
    QCOMPARE(b.searchPanel()->spaceEditor()->field("pp")->text(), QStringLiteral("2,4"));
    QCOMPARE(b.searchPanel()->spaceEditor()->field("recompute")->text(), QStringLiteral("full"));
    QCOMPARE(b.searchPanel()->spaceEditor()->field("cp")->text(), QString());
    // A field that does not read is saved as automatic, and the status bar says so.
    b.searchPanel()->spaceEditor()->field("tp")->setText(QStringLiteral("2,x"));
    QVERIFY(b.session().saveSession(path));
    QVERIFY2(b.statusBar()->currentMessage().contains(QStringLiteral(
                 "Search space, t: expected an integer, got 'x' (saved as automatic)")),
             qPrintable(b.statusBar()->currentMessage()));
    auto saved = read_session_file(path.toStdString());
    QVERIFY(saved.ok());
    QVERIFY(saved->search.space.tp.empty());
    QCOMPARE(saved->search.space.pp, (std::vector<int>{2, 4}));
  }
};

QTEST_MAIN(TestSession)
#include "test_session.moc"
