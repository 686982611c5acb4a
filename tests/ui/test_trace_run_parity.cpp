// CLI and explorer give the same units, errors and fitted profile for the same measured run: the
// explorer opens a run folder (File > Open Run…: a plan file and its rank traces, generated per
// rank by tests/common/rank_trace_generator.h), measured vs simulated and "Calibrate from Trace"
// run with the request the Traces tab builds (TraceWorkspace::traceRequest, the explorer's own
// code), and `slimpack simulate --check-trace` / `slimpack fit-costs --trace` run on the same
// files.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <tuple>

#include "../common/rank_trace_generator.h"
#include "app/trace_report.h"
#include "app/trace_run.h"
#include "plan/plan_json.h"
#include "sim/simulator.h"
#include "trace/sim_check_model.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"
#include "window/trace_hooks.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 60000;

std::string run_cli(const std::string& args) {
  const std::string cmd = std::string("'") + SLIMPACK_CLI + "' " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  pclose(pipe);
  return out;
}

// Two stages, two replicas, packs whose tokens and attention pairs vary independently.
Plan parity_plan() {
  return slimpack::testing::two_by_two_plan();
}

using Key = std::tuple<int, int, std::string, int>;  // replica, stage, pass, pack

}  // namespace

class TestTraceRunParity : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->show();
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().snapshot() != nullptr, kTimeoutMs);
  }
  void cleanupTestCase() { window_.reset(); }

  void cliAndExplorerAgree() {
    // The plan, and a run of it on a "machine" whose coefficients are not the model's.
    const Plan plan = parity_plan();
    QVERIFY(QDir(dir_.path()).mkpath("run"));
    const QString run_dir = dir_.filePath("run");
    const std::string plan_path = (run_dir + "/plan.json").toStdString();
    std::ofstream(plan_path) << plan_to_string(plan);
    auto model = trace_cost_model(plan, ConfigSpec{});
    QVERIFY(model.ok());
    CostModel machine = **model;
    CostCoeffs k = machine.coeffs();
    k.forward.kappa *= 1.5;
    k.forward.alpha *= 1.2;
    k.backward.beta *= 0.7;
    k.backward.kappa *= 0.8;
    machine.set_coeffs(k);
    auto measured = simulate(plan, &machine);
    QVERIFY(measured.ok());
    auto files =
        testing::write_rank_traces(*measured, testing::TraceStyle::Kineto, run_dir.toStdString());
    std::sort(files.begin(), files.end());  // as the folder lists them
    std::string list;
    for (const auto& f : files) list += (list.empty() ? "" : ",") + f;

    // The explorer: File > Open Run… on the folder; measured vs simulated shows.
    TraceWorkspace& ws = *window_->traceWorkspace();
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);
    auto* hooks = window_->findChild<TraceHooks*>();
    QVERIFY(hooks);
    hooks->openRun({run_dir});
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().snapshot()->plan_file == plan_path, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    QVERIFY(ws.simCheckVisible());
    QStringList paths;
    for (const auto& f : files) paths << QString::fromStdString(f);
    QCOMPARE(ws.pathsA(), paths);
    SimCheckPanel* panel = ws.simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value() && !panel->jobs().busy(), kTimeoutMs);
    const TraceCheck& gui = *panel->check();
    // The request the explorer built is what the CLI's options say.
    const TraceRunRequest request = ws.traceRequest();
    QCOMPARE(request.files, files);
    QCOMPARE(request.options.rules, std::string("slimpack"));

    // The CLI on the same files.
    const std::string out =
        run_cli("simulate --plan '" + plan_path + "' --check-trace '" + list + "' --json -");
    const auto cli = nlohmann::json::parse(out, nullptr, false);
    QVERIFY2(!cli.is_discarded(), out.c_str());
    const auto& c = cli["trace_check"];
    QCOMPARE(c["matched_units"].get<std::size_t>(), gui.units.size());
    QCOMPARE(gui.units.size(), std::size_t{48});
    QCOMPARE(c["only_simulated"].get<std::int64_t>(), gui.only_simulated);
    QCOMPARE(c["only_measured"].get<std::int64_t>(), gui.only_measured);
    QCOMPARE(gui.only_simulated + gui.only_measured, std::int64_t{0});
    QVERIFY(std::abs(c["mape"].get<double>() - gui.mape) < 1e-12);
    QVERIFY(gui.mape > 0.01);  // the machine is not the model
    std::map<Key, const UnitComparison*> by_key;
    for (const UnitComparison& u : gui.units)
      by_key[{u.replica, u.stage, u.pass == Pass::Forward ? "forward" : "backward", u.pack}] = &u;
    for (const auto& u : c["units"]) {
      const Key key{u["replica"].get<int>(), u["stage"].get<int>(), u["pass"].get<std::string>(),
                    u["pack"].get<int>()};
      QVERIFY(by_key.count(key));
      const UnitComparison& g = *by_key[key];
      QCOMPARE(u["simulated_us"].get<double>(), g.simulated_us);
      QCOMPARE(u["measured_us"].get<double>(), g.measured_us);
      QCOMPARE(u["error"].get<double>(), g.error);
      QCOMPARE(u["events"].size(), g.events.size());
      QCOMPARE(u["events"][0]["event"].get<int>(), g.events.front().event);
      QCOMPARE(u["events"][0]["name"].get<std::string>(), g.events.front().name);
      QCOMPARE(QFileInfo(QString::fromStdString(u["events"][0]["file"].get<std::string>()))
                   .fileName()
                   .toStdString(),
               gui.sources[static_cast<std::size_t>(g.events.front().source)]);
    }
    // The GUI table names the same events.
    QVERIFY(panel->model()
                ->index(0, SimCheckModel::Events)
                .data()
                .toString()
                .contains(QStringLiteral("kineto-")));

    // Calibration: the explorer's "Calibrate from Trace" and `fit-costs --trace`.
    const QString profile = TraceHooks::calibratedProfilePath(paths.front());
    QFile::remove(profile);
    emit ws.calibrateRequested(ws.viewA()->timeline());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(profile), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!ws.loadJobs().busy(), kTimeoutMs);
    std::ifstream gui_file(profile.toStdString());
    const auto gui_profile = nlohmann::json::parse(gui_file, nullptr, false);
    const std::string fitted =
        run_cli("fit-costs --trace '" + list + "' --plan '" + plan_path + "' --out -");
    const auto cli_profile = nlohmann::json::parse(fitted, nullptr, false);
    QVERIFY2(!cli_profile.is_discarded(), fitted.c_str());
    QVERIFY(!gui_profile.is_discarded());
    for (const char* pass : {"forward", "backward"})
      for (const char* coeff : {"kappa", "alpha", "beta"}) {
        const double a = cli_profile["fit"][pass][coeff].get<double>();
        const double b = gui_profile["fit"][pass][coeff].get<double>();
        QVERIFY2(a == b, (std::string(pass) + "." + coeff).c_str());
      }
    // And both found the machine's coefficients.
    QVERIFY(std::abs(cli_profile["fit"]["forward"]["kappa"].get<double>() - k.forward.kappa) <
            1e-4 * k.forward.kappa);
    QVERIFY(std::abs(cli_profile["fit"]["backward"]["beta"].get<double>() - k.backward.beta) <
            1e-4 * k.backward.beta);
  }
};

QTEST_MAIN(TestTraceRunParity)
#include "test_trace_run_parity.moc"
