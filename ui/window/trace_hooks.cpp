#include "window/trace_hooks.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>

#include "app/run_calibration.h"
#include "app/trace_run.h"
#include "jobs/job_tracker.h"
#include "models/format.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_rules_dialog.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

namespace slimpack::ui {
namespace {}  // namespace

TraceHooks::TraceHooks(MainWindow& window, ExplorerController& controller, Settings& settings,
                       TraceWorkspace& traces)
    : QObject(&window), window_(window), controller_(controller), traces_(traces) {
  connect(&controller, &ExplorerController::snapshotChanged, &traces,
          [this](const SnapshotPtr& snapshot) { traces_.setSimulation(snapshot); });
  if (controller.snapshot()) traces.setSimulation(controller.snapshot());
  // A run (one file per rank) is one Recent entry that reopens all of it; run B is recorded too.
  connect(&traces, &TraceWorkspace::opened, &settings,
          [&settings](const QStringList& paths) { settings.addRecentRun(paths); });
  connect(&traces, &TraceWorkspace::comparedWith, &settings,
          [&settings](const QStringList& paths) { settings.addRecentRun(paths); });
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

QString TraceHooks::matchingRunHint() {
  return tr(
      "To measure this plan: write its executable schedule with `slimpack solve "
      "--schedule-out schedule.json` (same options) and run it with `slimpack-run "
      "schedule.json --trace-dir run/`, then File > Open Run… on run/.");
}

void TraceHooks::calibrate() {
  const SnapshotPtr snapshot = controller_.snapshot();
  const auto measured = traces_.simCheck()->measured();
  if (traces_.pathsA().isEmpty() || !measured) {
    window_.showError(tr("Calibrate from Trace"),
                      tr("No measured run is open: calibration fits the cost model to the unit "
                         "times of a trace of this plan. ") +
                          matchingRunHint());
    return;
  }
  if (!snapshot || !snapshot->plan) {
    window_.showError(tr("Calibrate from Trace"),
                      tr("There is no plan to calibrate against yet: wait for the result."));
    return;
  }
  const QString path = calibratedProfilePath(traces_.pathsA().front());
  QDir().mkpath(QFileInfo(path).absolutePath());
  // core/app's one call, as `slimpack fit-costs --trace` makes it: priced as the run ran (a
  // schedule's own setup, not the Configuration panel's), fitted, reviewed and written (a refused
  // profile too: it is offered as a proposal).
  traces_.loadJobs().start(
      tr("Calibrating"),
      [measured, snapshot, request = traces_.traceRequest(), file = path.toStdString()](
          const CancelToken& cancel, ProgressSink& progress) -> Expected<RunCalibration> {
        progress.report("calibrating from the trace (" + request.options.rules + ")", 0.0);
        auto pricing =
            run_pricing(*snapshot->plan, snapshot->plan_file, snapshot->config, snapshot->cost);
        if (!pricing) return pricing.error();
        return calibrate_run(*measured, request, *snapshot->plan, *pricing,
                             {.profile_out = file, .write_refused = true}, cancel);
      },
      [this, path](Expected<RunCalibration> done) {
        if (!done) {
          if (done.error().kind != ErrorKind::Cancelled)
            window_.showError(tr("Calibrate from Trace"),
                              QString::fromStdString(done.error().message));
          return;
        }
        present(path, *done);
      });
}

void TraceHooks::present(const QString& file, const RunCalibration& done) {
  const TraceCalibration& c = done.calibration;
  const QString fit = tr("%1 units (%2 skipped), refit error %3, priced by %4")
                          .arg(c.units_used)
                          .arg(c.units_skipped)
                          .arg(formatPercent(c.mape), QString::fromStdString(done.pricing.label));
  if (!done.review.acceptable) {
    propose(file, fit, QString::fromStdString(done.review.problem), done.not_applicable.empty());
    return;
  }
  const QString figures =
      tr("with it the plan runs in %1 at an MFU of %2, peak memory %3")
          .arg(formatTime(done.review.makespan_s), formatPercent(done.review.mfu),
               formatBytes(done.review.peak_memory_bytes));
  if (!done.not_applicable.empty()) {
    // A schedule fixes its costs: applying the profile would re-price the run as the
    // Configuration panel's model. The CLI refuses the same (`simulate --plan S --cost-profile`).
    const QString note = tr("Calibrated from %1; %2; not applied: %3. The profile is %4.")
                             .arg(fit, figures, QString::fromStdString(done.not_applicable),
                                  QDir::toNativeSeparators(file));
    traces_.setNote(note);
    emit calibrationRejected(file, note);
    return;
  }
  apply(file, tr("Calibrated from %1 (%2): %3").arg(fit, figures, QDir::toNativeSeparators(file)));
}

void TraceHooks::apply(const QString& file, const QString& summary) {
  traces_.setNote(summary);
  // The same path as a loaded cost profile: checked on a worker, then the plan re-solves.
  controller_.setCostFiles(file, QString::fromStdString(controller_.config().cost_overrides_file));
  emit calibrated(file, summary);
}

void TraceHooks::propose(const QString& file, const QString& fit, const QString& problem,
                         bool may_apply) {
  // Never applied silently: the note says why; the user may still apply the profile, unless a
  // schedule fixes the costs (applying would re-price the run by another model).
  const QString note = tr("Calibration not applied (%1): %2.").arg(fit, problem);
  traces_.setNote(note);
  emit calibrationRejected(file, note);
  if (!window_.errorDialogsEnabled() || !may_apply) return;
  auto* box = new QMessageBox(QMessageBox::Warning, tr("SlimPack Explorer"),
                              tr("Calibration from the trace looks wrong"), QMessageBox::NoButton,
                              &window_);
  box->setInformativeText(note + "\n\n" + matchingRunHint());
  QPushButton* use = box->addButton(tr("Apply Anyway"), QMessageBox::AcceptRole);
  box->addButton(tr("Discard"), QMessageBox::RejectRole);
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::buttonClicked, this, [this, use, file, fit](QAbstractButton* b) {
    if (b == use)
      apply(file, tr("Calibrated from %1 (applied against the warning): %2")
                      .arg(fit, QDir::toNativeSeparators(file)));
  });
  box->open();  // window-modal, no nested event loop
}

}  // namespace slimpack::ui
