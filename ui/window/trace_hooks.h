#pragma once
// What ties the Traces tab (ui/trace) to the rest of the explorer, kept out of MainWindow:
//  - the controller's current result goes to "Measured vs Simulated";
//  - "Calibrate from Trace" runs as a job: core/app's calibrate_run (the call `slimpack
//    fit-costs --trace` makes) over run A with the workspace's request (files, trace options,
//    rules) and the current plan, priced as the run ran (run_pricing: an opened schedule's own
//    setup, whatever the Configuration panel says). The fitted profile is written to the
//    application data folder and applied as the configuration's cost profile the same way a
//    loaded profile is (ExplorerController::setCostFiles): the plan re-solves. A calibration
//    the review refuses (not a run of the plan, refit error too high, MFU above 100 %) is not
//    applied: the tab's note says why, and a window-modal box offers it anyway. A schedule's
//    calibration is never applied (it would re-price the schedule by the panel's model; the CLI
//    refuses `--cost-profile` with a schedule in the same words): the note gives its figures;
//  - "Mapping Rules…" opens the rules dialog (ui/trace/trace_rules_dialog.h) on the rules in use;
//    accepted rules map the trace for measured vs simulated and for calibration;
//  - opened traces go into Open Recent;
//  - "Open Run…" (openRun): a plan file and its rank traces, or a folder of them
//    (core/app's run_files), opened together: the plan simulates, the traces load, and measured
//    vs simulated shows both Gantts on one axis with the per-unit errors.
#include <QObject>
#include <QString>
#include <memory>

#include "render/trace_timeline.h"

namespace slimpack {
struct RunCalibration;
}

namespace slimpack::ui {

class ExplorerController;
class MainWindow;
class Settings;
class TraceWorkspace;

class TraceHooks : public QObject {
  Q_OBJECT

 public:
  TraceHooks(MainWindow& window, ExplorerController& controller, Settings& settings,
             TraceWorkspace& traces);

  // Opens a run: files or a folder holding one plan (or schedule) file and its rank traces. A
  // folder without a plan, or with two, is reported and changes nothing.
  void openRun(const QStringList& given);

  // Where a calibration of `trace_file` is written: <app data>/calibrated/<stem>-profile.json.
  static QString calibratedProfilePath(const QString& trace_file);

 signals:
  // A calibration was applied: the profile file, and a one-line summary.
  void calibrated(const QString& profile_path, const QString& summary);
  // A calibration was not applied (refit error too high, or an impossible MFU): the profile file
  // (a proposal the user may apply) and the reason.
  void calibrationRejected(const QString& profile_path, const QString& reason);

 public:
  // How to get a trace that is a run of the current plan (schedule file, slimpack-run).
  static QString matchingRunHint();

 private:
  void calibrate();
  // The result of core/app's calibrate_run: applied, proposed or (a schedule's) only noted.
  void present(const QString& file, const RunCalibration& done);
  void apply(const QString& file, const QString& summary);
  void propose(const QString& file, const QString& fit, const QString& problem, bool may_apply);
  void editRules(const std::shared_ptr<const TraceTimeline>& run);

  MainWindow& window_;
  ExplorerController& controller_;
  TraceWorkspace& traces_;
};

}  // namespace slimpack::ui
