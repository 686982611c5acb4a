#include "window/trace_hooks.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "app/trace_run.h"
#include "jobs/job_tracker.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_rules_dialog.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

namespace slimpack::ui {
namespace {

struct CalibrationDone {
  std::string path;
  TraceCalibration calibration;
};

}  // namespace

TraceHooks::TraceHooks(MainWindow& window, ExplorerController& controller, Settings& settings,
                       TraceWorkspace& traces)
    : QObject(&window), window_(window), controller_(controller), traces_(traces) {
  connect(&controller, &ExplorerController::snapshotChanged, &traces,
          [this](const SnapshotPtr& snapshot) { traces_.setSimulation(snapshot); });
  if (controller.snapshot()) traces.setSimulation(controller.snapshot());
  connect(&traces, &TraceWorkspace::opened, &settings, [&settings](const QStringList& paths) {
    for (const QString& p : paths) settings.addRecentFile(p);
  });
  connect(&traces, &TraceWorkspace::calibrateRequested, this, [this] { calibrate(); });
  connect(&traces, &TraceWorkspace::mappingRulesRequested, this,
          [this](const std::shared_ptr<const TraceTimeline>& run) { editRules(run); });
  traces.setMappingActionsVisible(true, true);
}

void TraceHooks::openRun(const QStringList& given) {
  std::vector<std::string> paths;
  for (const QString& p : given) paths.push_back(p.toStdString());
  auto files = run_files(paths);
  if (!files) {
    window_.showError(tr("Open Run"), QString::fromStdString(files.error().message));
    return;
  }
  controller_.openInputFile(QString::fromStdString(files->plan_file));
  QStringList traces;
  for (const std::string& t : files->traces) traces << QString::fromStdString(t);
  traces_.openTraces(traces);
  traces_.setSimCheckVisible(true);  // the simulated Gantt under the measured one, with errors
}

QString TraceHooks::calibratedProfilePath(const QString& trace_file) {
  QString stem = QFileInfo(trace_file).fileName();
  for (const char* suffix : {".gz", ".json", ".pt.trace"})
    if (stem.endsWith(QLatin1String(suffix))) stem.chop(static_cast<int>(qstrlen(suffix)));
  const QString dir =
      QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/calibrated";
  return dir + "/" + stem + "-profile.json";
}

void TraceHooks::editRules(const std::shared_ptr<const TraceTimeline>& run) {
  SimCheckPanel* panel = traces_.simCheck();
  UnitRuleSet rules = panel->rules();
  // The first rank's names preview the matches (every rank runs the same code).
  std::vector<std::string> names;
  if (run && !run->sources().empty()) names = run->sources().front().trace->names;
  if (!TraceRulesDialog::edit(&window_, rules, std::move(names))) return;
  panel->setRules(rules);
  traces_.setSimCheckVisible(true);  // show what the rules map
}

void TraceHooks::calibrate() {
  const SnapshotPtr snapshot = controller_.snapshot();
  if (traces_.pathsA().isEmpty()) return;
  if (!snapshot || !snapshot->plan) {
    window_.showError(tr("Calibrate from Trace"),
                      tr("There is no plan to calibrate against yet: wait for the result."));
    return;
  }
  const QString path = calibratedProfilePath(traces_.pathsA().front());
  QDir().mkpath(QFileInfo(path).absolutePath());
  const auto measured = traces_.simCheck()->measured();
  if (!measured) return;
  traces_.loadJobs().start(
      tr("Calibrating"),
      [measured, snapshot, request = traces_.traceRequest(), file = path.toStdString()](
          const CancelToken& cancel, ProgressSink& progress) -> Expected<CalibrationDone> {
        progress.report("calibrating from the trace (" + request.options.rules + ")", 0.0);
        // The cost model the plan was simulated with (core/app's one rule for a run).
        auto cost = trace_cost_model(*snapshot->plan, snapshot->config, snapshot->cost);
        if (!cost) return cost.error();
        auto cal = calibrate_trace_run(*measured, request, *snapshot->plan, **cost);
        if (!cal) return cal.error();
        if (cancel.cancelled()) return Error::cancelled();
        if (Status written = write_cost_profile(file, cal->profile); !written)
          return written.error();
        return CalibrationDone{file, std::move(*cal)};
      },
      [this](Expected<CalibrationDone> done) {
        if (!done) {
          if (done.error().kind != ErrorKind::Cancelled)
            window_.showError(tr("Calibrate from Trace"),
                              QString::fromStdString(done.error().message));
          return;
        }
        const QString file = QString::fromStdString(done->path);
        const TraceCalibration& c = done->calibration;
        const QString summary = tr("Calibrated from %1 units (%2 skipped), refit MAPE %3 %: %4")
                                    .arg(c.units_used)
                                    .arg(c.units_skipped)
                                    .arg(100.0 * c.mape, 0, 'f', 2)
                                    .arg(QDir::toNativeSeparators(file));
        traces_.setNote(summary);
        // The same path as a loaded cost profile: checked on a worker, then the plan re-solves.
        controller_.setCostFiles(file,
                                 QString::fromStdString(controller_.config().cost_overrides_file));
        emit calibrated(file, summary);
      });
}

}  // namespace slimpack::ui
