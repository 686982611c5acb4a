// A run of the tiny-model schedule (samples/schedules/tiny-p4.schedule.json, the folder's
// schedule.json as slimpack-run --trace-dir writes it) is priced by its schedule in the explorer as
// in the CLI: the Configuration panel keeps its Llama-3-8B on H100 (it does not know the tiny
// model), yet measured vs simulated and Calibrate from Trace use the schedule's setup, and the
// calibration is not applied (a schedule fixes its costs; the CLI refuses `--cost-profile` with it
// in the same words). The reviewed figures (MFU, peak memory) are the ones `slimpack fit-costs
// --trace` prints for the same files, and the plan is not re-priced: its peak memory stays the
// tiny model's.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <fstream>

#include "../common/rank_trace_generator.h"
#include "app/schedule_input.h"
#include "models/format.h"
#include "open_window.h"
#include "sim/simulator.h"
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

}  // namespace

class TestScheduleRunPricing : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    window_ = openTestWindow(dir_, settings_);
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().snapshot() != nullptr, kTimeoutMs);
  }
  void cleanupTestCase() { window_.reset(); }

  void aTinyModelRunIsPricedByItsSchedule() {
    // The run folder: the schedule and one trace per rank, on a machine 1.2 times as slow.
    QVERIFY(QDir(dir_.path()).mkpath("run"));
    const QString run_dir = dir_.filePath("run");
    const QString schedule = run_dir + "/schedule.json";
    QVERIFY(QFile::copy(SLIMPACK_SAMPLES_DIR "/schedules/tiny-p4.schedule.json", schedule));
    auto loaded = load_schedule_file(schedule.toStdString());
    QVERIFY(loaded.ok());
    CostModel machine = *loaded->cost;
    CostCoeffs k = machine.coeffs();
    for (PassCoeffs* p : {&k.forward, &k.backward}) {
      p->kappa *= 1.2;
      p->alpha *= 1.2;
      p->beta *= 1.2;
    }
    machine.set_coeffs(k);
    auto measured = simulate(*loaded->plan, &machine);
    QVERIFY(measured.ok());
    testing::write_rank_traces(*measured, testing::TraceStyle::Kineto, run_dir.toStdString());
    auto own = simulate(*loaded->plan, loaded->cost.get());
    QVERIFY(own.ok());

    // File > Open Run… on the folder: the schedule prices the plan; the panel keeps its model.
    TraceWorkspace& ws = *window_->traceWorkspace();
    QSignalSpy opened(&ws, &TraceWorkspace::loaded);
    auto* hooks = window_->findChild<TraceHooks*>();
    QVERIFY(hooks);
    ExplorerController& c = window_->controller();
    hooks->openRun({run_dir});
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot()->plan_file == schedule.toStdString() && !c.busy(),
                             kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QCOMPARE(c.config().model, ConfigSpec{}.model);  // Llama-3-8B: the panel keeps its own
    QCOMPARE(c.snapshot()->cost->model().name, std::string("tiny-8x256"));
    QCOMPARE(c.snapshot()->sim.peak_memory_bytes, own->peak_memory_bytes);
    SimCheckPanel* panel = ws.simCheck();
    QTRY_VERIFY_WITH_TIMEOUT(panel->check().has_value() && !panel->jobs().busy(), kTimeoutMs);
    QVERIFY2(panel->summaryText().contains("MAPE"), qPrintable(panel->summaryText()));

    // Calibrate from Trace: priced by the schedule, reviewed, and not applied.
    QSignalSpy rejected(hooks, &TraceHooks::calibrationRejected);
    QSignalSpy applied(hooks, &TraceHooks::calibrated);
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    const QString profile = TraceHooks::calibratedProfilePath(ws.pathsA().front());
    QFile::remove(profile);
    emit ws.calibrateRequested(ws.viewA()->timeline());
    QTRY_VERIFY_WITH_TIMEOUT(rejected.count() + applied.count() + errors.count() > 0, kTimeoutMs);
    QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(errors.front().at(1).toString()));
    QCOMPARE(applied.count(), 0);
    QCOMPARE(rejected.count(), 1);
    const QString note = rejected.front().at(1).toString();
    QVERIFY2(note.contains("priced by the schedule's setup (tiny-8x256 on cpu-core-fp64-flops, "
                           "tp 1)") &&
                 note.contains("; not applied: --cost-profile " + profile +
                               " contradicts the schedule's setup (not set)"),
             qPrintable(note));
    QVERIFY(QFile::exists(profile));
    QCOMPARE(c.config().cost_profile_file, std::string());
    QVERIFY(!c.busy());
    QCOMPARE(c.snapshot()->cost->model().name, std::string("tiny-8x256"));
    QCOMPARE(c.snapshot()->sim.peak_memory_bytes, own->peak_memory_bytes);

    // The CLI on the same files: the same profile, and the same reviewed figures.
    const std::string folder = run_dir.toStdString();
    const std::string text =
        run_cli("fit-costs --trace '" + folder + "' --plan '" + schedule.toStdString() + "'");
    QVERIFY2(text.find("priced by the schedule's setup (tiny-8x256 on cpu-core-fp64-flops, tp "
                       "1)") != std::string::npos,
             text.c_str());
    const auto figures = note.indexOf("at an MFU of ");
    QVERIFY(figures > 0);
    // "at an MFU of X %, peak memory Y MB" as both print it (core/common/format.h).
    const QString same = note.mid(figures, note.indexOf("; not applied") - figures);
    QVERIFY2(same.contains("peak memory") && text.find(same.toStdString()) != std::string::npos,
             qPrintable(same + " | " + QString::fromStdString(text)));
    QVERIFY(same.contains(formatBytes(own->peak_memory_bytes)));
    const std::string fitted = run_cli("fit-costs --trace '" + folder + "' --plan '" +
                                       schedule.toStdString() + "' --out -");
    const auto cli_profile = nlohmann::json::parse(fitted, nullptr, false);
    QVERIFY2(!cli_profile.is_discarded(), fitted.c_str());
    std::ifstream gui_file(profile.toStdString());
    const auto gui_profile = nlohmann::json::parse(gui_file, nullptr, false);
    QVERIFY(!gui_profile.is_discarded());
    for (const char* pass : {"forward", "backward"})
      for (const char* coeff : {"kappa", "alpha", "beta"})
        QCOMPARE(gui_profile["fit"][pass][coeff].get<double>(),
                 cli_profile["fit"][pass][coeff].get<double>());
    QVERIFY(std::abs(cli_profile["fit"]["forward"]["kappa"].get<double>() - k.forward.kappa) <
            1e-4 * k.forward.kappa);
  }
};

QTEST_MAIN(TestScheduleRunPricing)
#include "test_schedule_run_pricing.moc"
