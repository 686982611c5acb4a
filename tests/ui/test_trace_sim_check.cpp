// Measured against simulated in the Traces tab: our own exported trace mapped onto the plan that
// made it, explicit-time plans scaled to seconds, the slowest unit named, Calibrate from Trace,
// the mapping-rules dialog and a rank the plan does not have.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>
#include <QtTest>
#include "app/session_file.h"
#include "gantt/gantt_view.h"
#include "jobs/job_tracker.h"
#include "open_window.h"
#include "render/trace_timeline.h"
#include "trace/chrome_trace.h"
#include "trace/sim_check_model.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_rules_dialog.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "trace_test_support.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/screenshot.h"
#include "window/settings.h"
#include "window/trace_hooks.h"

using namespace slimpack;
using namespace slimpack::ui;
using namespace trace_test;

class TestTraceSimCheck : public trace_test::TraceWindowTest {
  Q_OBJECT
 private slots:
  void initTestCase() { openWindow(kTimeoutMs); }
  void cleanupTestCase() { window_.reset(); }

  // The current plan exported by the simulate --trace code path, opened in the Traces tab and
  // mapped with the built-in slimpack rules: every unit matches its simulated op exactly.
  void measuredAgainstSimulatedRoundTrip() {
    const SnapshotPtr snap = window_->controller().snapshot();
    QVERIFY(snap && snap->plan);
    const QString path = dir_.filePath("current-plan.trace.json");
    QVERIFY(write_chrome_trace(path.toStdString(), *snap->plan, snap->sim).ok());
    ws().setSimCheckVisible(true);
    SimCheckPanel* panel = ws().simCheck();
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    QVERIFY(!panel->setRuleSet(QStringLiteral("no-such-rules")));
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({path});
    waitLoaded(loaded, 1);
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    const TraceCheck& c = *panel->check();
    std::size_t ops = 0;  // F and B ops of the simulation: every one is a matched unit
    for (const auto& r : snap->sim.replicas)
      for (const auto& st : r.stages)
        for (const auto& op : st.ops)
          if (op.kind == OpKind::Forward) ++ops;
    ops *= 2;  // each forward pack has its backward
    QVERIFY(!c.units.empty());
    QVERIFY(c.units.size() <= ops);
    QCOMPARE(c.only_measured, std::int64_t{0});
    QCOMPARE(c.only_simulated, std::int64_t{0});
    QVERIFY2(c.mape < 1e-9, qPrintable(QString::number(c.mape)));
    QVERIFY(std::abs(c.makespan_error) < 1e-9);
    QVERIFY(std::abs(c.simulated_makespan_us - snap->sim.makespan * 1e6) < 1e-3);
    for (const UnitComparison& u : c.units) QVERIFY(std::abs(u.error) < 1e-9);
    // The table shows every unit; the simulated Gantt is the snapshot's, on A's time axis.
    SimCheckModel* model = panel->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), static_cast<int>(c.units.size()));
    QCOMPARE(model->index(0, SimCheckModel::Error).data().toString(), QStringLiteral("0.0 %"));
    GanttView* sim = panel->simulatedView();
    QVERIFY(sim->isVisible());
    QCOMPARE(sim->model(), snap->gantt);
    QCOMPARE(ws().viewA()->timeline()->origin_us(), *panel->unitsOriginUs());
    ws().viewA()->setViewRange(0.001, 0.002);
    QCOMPARE(sim->viewRange().t0, ws().viewA()->viewRange().t0);
    QCOMPARE(sim->viewRange().t1, ws().viewA()->viewRange().t1);
    QVERIFY(panel->summaryText().contains(QStringLiteral("MAPE 0.0 %")));
    QVERIFY(settings_->recentFiles().contains(path));  // opened traces are in Open Recent
    // Clicking a unit's row shows it in both Gantts: the range holds the measured and the
    // simulated op (the same times in this round trip), with a quarter of its length around it.
    const UnitComparison& first = model->unit(0);
    double op_start = -1.0, op_end = -1.0;
    for (const TimedOp& op : snap->sim.replicas[first.replica].stages[first.stage].ops)
      if (op.pack == first.pack && op.pass == first.pass && op.kind != OpKind::P2P &&
          op.kind != OpKind::DpSync && op.kind != OpKind::Optimizer)
        op_start = op_start < 0 ? op.start : op_start, op_end = op.end;
    const auto range = panel->unitRange(0);
    QVERIFY(range.has_value());
    QVERIFY(std::abs(range->t0 - op_start) < 1e-9 && std::abs(range->t1 - op_end) < 1e-9);
    QTest::mouseClick(panel->table()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      panel->table()->visualRect(model->index(0, 0)).center());
    QVERIFY(std::abs(sim->viewRange().t0 - (op_start - 0.25 * (op_end - op_start))) < 1e-9);
    QVERIFY(std::abs(ws().viewA()->viewRange().t1 - (op_end + 0.25 * (op_end - op_start))) < 1e-9);
    // One plot origin: one x is one time in both Gantts.
    QCOMPARE(sim->currentLayout().plot.left(), ws().viewA()->currentLayout().plot.left());
    ws().viewA()->setViewRange(0.0, snap->sim.makespan * 1.01);
    shoot(&ws(), "trace-vs-simulated.png");

    // Another rule set finds no unit in our export: one message, no check.
    QSignalSpy failed(panel, &SimCheckPanel::failed);
    QVERIFY(panel->setRuleSet(QStringLiteral("megatron")));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
    QVERIFY(!panel->check());
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
  }

  // An explicit-time plan runs in abstract units, exported as 1 unit = 1 ms: its simulated Gantt
  // is drawn in seconds so it shares the measured trace's axis.
  void explicitTimeSimulationIsScaledToSeconds() {
    SimResult r;
    r.time_unit = "units";
    r.makespan = 5.0;
    r.iteration_time = 6.0;
    r.tokens_per_second = 100.0;  // tokens per unit
    ReplicaResult rep;
    rep.makespan = 5.0;
    rep.finish = 6.0;
    StageResult st;
    st.ops.push_back(TimedOp{2.0, 5.0, 0, 0, 0, OpKind::Forward, Pass::Forward});
    st.busy = 3.0;
    st.memory.push_back({4.0, 1e9});
    rep.stages.push_back(st);
    r.replicas.push_back(rep);
    const SimResult s = simulation_in_seconds(r);
    QCOMPARE(s.time_unit, std::string("s"));
    QCOMPARE(s.replicas[0].stages[0].ops[0].start, 0.002);
    QCOMPARE(s.replicas[0].stages[0].ops[0].end, 0.005);
    QCOMPARE(s.replicas[0].stages[0].busy, 0.003);
    QCOMPARE(s.replicas[0].stages[0].memory[0].time, 0.004);
    QCOMPARE(s.replicas[0].stages[0].memory[0].bytes, 1e9);
    QCOMPARE(s.makespan, 0.005);
    QCOMPARE(s.replicas[0].finish, 0.006);
    QCOMPARE(s.tokens_per_second, 100000.0);  // per second
    r.time_unit = "s";
    QCOMPARE(simulation_in_seconds(r).makespan, 5.0);  // seconds stay as they are
  }

  // One forward unit measured twice as long as simulated: error (sim - meas) / meas = -50 %, it
  // is the worst unit, and MAPE is 50 % over the unit count.
  void oneSlowUnitIsTheWorst() {
    QFile in(dir_.filePath("current-plan.trace.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray events = doc.value("traceEvents").toArray();
    double simulated_us = 0.0;
    for (qsizetype i = 0; i < events.size(); ++i) {
      QJsonObject e = events[i].toObject();
      if (e.value("name").toString() != QStringLiteral("F1") || e.value("ph") != "X") continue;
      simulated_us = e.value("dur").toDouble();
      e.insert("dur", 2.0 * simulated_us);
      events[i] = e;
      break;
    }
    QVERIFY(simulated_us > 0.0);
    doc.insert("traceEvents", events);
    const QString path = writeFile(dir_, "slow-unit.trace.json", QJsonDocument(doc).toJson());
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({path});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    const TraceCheck& c = *panel->check();
    QCOMPARE(c.units.front().pass, Pass::Forward);
    QCOMPARE(c.units.front().pack, 0);
    QVERIFY(std::abs(c.units.front().error + 0.5) < 1e-9);
    QVERIFY(std::abs(c.units[1].error) < 1e-9);
    QVERIFY(std::abs(c.mape - 0.5 / static_cast<double>(c.units.size())) < 1e-9);
    QCOMPARE(panel->model()->index(0, SimCheckModel::Error).data().toString(),
             QStringLiteral("-50.0 %"));
    QVERIFY(
        panel->summaryText().contains(QStringLiteral("worst: r0 s0 forward pack F1 (-50.0 %)")));
  }

  // Calibrate from Trace: a trace of this plan on a machine twice as slow in every unit is
  // fitted, the profile becomes the configuration's cost profile and the plan re-solves slower.
  void calibrateFromTraceAppliesTheProfile() {
    const SnapshotPtr before = window_->controller().snapshot();
    const QString path = writeScaledTrace(dir_.filePath("current-plan.trace.json"), dir_,
                                          "slow-machine.trace.json", 2.0);
    QVERIFY(!path.isEmpty());
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({path});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    QVERIFY(std::abs(panel->check()->mape - 0.5) < 1e-6);  // every unit: sim = measured / 2

    QSignalSpy snapshots(&window_->controller(), &ExplorerController::snapshotChanged);
    emit ws().calibrateRequested(ws().viewA()->timeline());
    const QString profile = TraceHooks::calibratedProfilePath(path);
    QTRY_COMPARE_WITH_TIMEOUT(
        QString::fromStdString(window_->controller().config().cost_profile_file), profile,
        kTimeoutMs);
    QVERIFY(QFile::exists(profile));
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy(), kTimeoutMs);
    QVERIFY(ws().statusText().contains(QStringLiteral("Calibrated from")));
    const SnapshotPtr after = window_->controller().snapshot();
    qInfo("makespan before %.6f s, after calibration %.6f s", before->sim.makespan,
          after->sim.makespan);
    QVERIFY(after->sim.makespan > 1.5 * before->sim.makespan);
    // One undoable edit: Undo gives the previous cost profile back.
    window_->undoStack()->undo();
    QCOMPARE(window_->controller().config().cost_profile_file, before->config.cost_profile_file);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::abs(window_->controller().snapshot()->sim.makespan - before->sim.makespan) < 1e-9,
        kTimeoutMs);
  }

  // "Mapping Rules…": the dialog opens on the rules in use; accepted rules map the trace for
  // measured vs simulated, are listed as custom and saved in the session whole.
  void mappingRulesDialogSetsTheRules() {
    ws().setSimCheckVisible(false);  // the panel as a user opening the dialog first finds it
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    ws().openTraces({dir_.filePath("current-plan.trace.json")});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    // Hidden, the panel maps nothing; shown, it catches up.
    QVERIFY(!ws().simCheckVisible());
    QVERIFY(!panel->check().has_value() && !panel->jobs().busy());
    ws().setSimCheckVisible(true);
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    // (The plan re-solved with the calibrated profile: this trace is no longer its exact twin.)
    const double slimpack_mape = panel->check()->mape;
    const std::size_t slimpack_units = panel->check()->units.size();
    QVERIFY(panel->setRuleSet(QStringLiteral("megatron")));
    UnitRuleSet mine;
    mine.name = "mine";
    mine.rules = {{"F([0-9]+)", "", "", Pass::Forward, 1, 1},
                  {"B([0-9]+)", "", "", Pass::Backward, 1, 1}};
    QString seen;
    QTimer::singleShot(0, this, [&] {
      auto* dialog = qobject_cast<TraceRulesDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      seen = QString::fromStdString(dialog->ruleSet().name);
      dialog->setRuleSet(mine);
      dialog->accept();
    });
    emit ws().mappingRulesRequested(ws().viewA()->timeline());
    QCOMPARE(seen, QStringLiteral("megatron"));  // it opened on the rules in use
    QCOMPARE(panel->ruleSet(), QStringLiteral("mine"));
    QVERIFY(panel->customRules());
    QVERIFY(ws().simCheckVisible());
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value(), kTimeoutMs);
    // The same units as the built-in slimpack rules (these are them without the categories).
    QCOMPARE(panel->check()->units.size(), slimpack_units);
    QCOMPARE(panel->check()->mape, slimpack_mape);
    SessionFile with_rules;
    with_rules.trace_options = ws().traceOptions();
    with_rules.traces = ws().sessionPart();
    QCOMPARE(with_rules.trace_options.rules, std::string("mine"));
    QVERIFY(!with_rules.traces.rules_json.empty());
    auto back = session_from_json(session_to_json(with_rules), "s");
    QVERIFY(back.ok());
    QCOMPARE(back->trace_options.rules, std::string("mine"));
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    QVERIFY(!panel->customRules());
    ws().restoreSessionPart(back->trace_options, back->traces);
    QCOMPARE(panel->ruleSet(), QStringLiteral("mine"));
    waitLoaded(loaded, 2);
    // A custom set equal to a built-in one is that built-in.
    panel->setRules(*builtin_unit_rules("dualpipe"));
    QCOMPARE(panel->ruleSet(), QStringLiteral("dualpipe"));
    QVERIFY(!panel->customRules());
    QVERIFY(panel->setRuleSet(QStringLiteral("slimpack")));
    ws().setSimCheckVisible(false);
  }

  // A rank's trace that is no rank of the current plan (tests/cli/bad/runs: the CLI's message for
  // it): measured vs simulated says so, as `slimpack simulate --check-trace` does.
  void rankOutsideThePlanIsReported() {
    QSignalSpy loaded(&ws(), &TraceWorkspace::loaded);
    const QString rank7 =
        QStringLiteral(SLIMPACK_SOURCE_DIR "/tests/cli/bad/runs/rank-outside-plan.json");
    ws().openTraces({rank7});
    waitLoaded(loaded, 1);
    SimCheckPanel* panel = ws().simCheck();
    QSignalSpy failed(panel, &SimCheckPanel::failed);
    ws().setSimCheckVisible(true);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 1, kTimeoutMs);
    const QString message = failed.last().at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("rank-outside-plan.json: rank 7 (from its "
                                             "distributedInfo) is not a rank of the plan")),
             qPrintable(message));
    QVERIFY(panel->summaryText().contains(QStringLiteral("is not a rank of the plan")));
    ws().setSimCheckVisible(false);
  }
};

QTEST_MAIN(TestTraceSimCheck)
#include "test_trace_sim_check.moc"
