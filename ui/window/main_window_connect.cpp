// MainWindow: the wiring between the panels, the controller and the jobs, and a new result
// reaching every panel.
#include "window/main_window.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>

#include "charts/memory_chart.h"
#include "gantt/gantt_view.h"
#include "jobs/job_board.h"
#include "models/metrics_model.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "panels/metrics_panel.h"
#include "panels/search_panel.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "window/column_chooser.h"
#include "window/edit_history.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/session_io.h"
#include "window/settings.h"
#include "window/status_line.h"
#include "window/view_states.h"
#include "window/window_menus.h"

namespace slimpack::ui {
namespace {
// Whether two Gantts show the same batch (the same sequences at the same indices).
bool sameBatch(const GanttModel* a, const GanttModel* b) {
  if (!a || !b || a->sequence_count() != b->sequence_count()) return false;
  for (SeqIndex i = 0; i < a->sequence_count(); ++i) {
    const Sequence &x = a->sequence(i), &y = b->sequence(i);
    if (x.id != y.id || x.length != y.length || x.sample != y.sample) return false;
  }
  return true;
}
}  // namespace

void MainWindow::connectController() {
  ExplorerController& c = *controller_;
  connect(workload_, &WorkloadPanel::workloadEdited, &c, &ExplorerController::setWorkload);
  connect(config_, &ConfigPanel::configEdited, &c, &ExplorerController::setConfig);
  connect(sweep_, &SweepPanel::sweepRequested, &c, &ExplorerController::requestSweep);
  connect(sweep_, &SweepPanel::sliceSelected, this, [this](Tokens s) {
    ConfigSpec spec = controller_->config();
    spec.slice_size = s;
    config_->setSpec(spec);
    controller_->setConfig(spec);
  });
  // One Ctrl+Z undoes a whole slider drag.
  connect(config_->sliceSlider(), &QSlider::sliderPressed, this,
          [this] { history_->setMerging(true); });
  connect(config_->sliceSlider(), &QSlider::sliderReleased, this,
          [this] { history_->setMerging(false); });
  connect(compare_, &CompareView::compareRequested, &c, &ExplorerController::requestCompare);
  // A configuration picked in the Search tab becomes the explorer's configuration.
  // Another configuration is another plan: the Gantt fits it rather than keep the old zoom, and
  // the status bar says what its figures in the search were (means over K batches).
  connect(search_, &SearchPanel::configurationChosen, this, [this](const ConfigSpec& spec) {
    gantt_->fitToWindow();
    config_->setSpec(spec);
    controller_->setConfig(spec);
    tabs_->setCurrentWidget(gantt_frame_);
    statusBar()->showMessage(search_->choiceNote(), 30000);
  });
  connect(search_, &SearchPanel::badInput, this, &MainWindow::showError);
  connect(config_, &ConfigPanel::costFileRequested, menus_, &WindowMenus::costFileDialog);
  connect(config_, &ConfigPanel::modelFileRequested, menus_, &WindowMenus::modelFileDialog);
  connect(&c, &ExplorerController::inputsChanged, this, [this] {
    search_->setBasis(controller_->workload(), controller_->config());
    workload_->setSpec(controller_->workload());
    workload_->setPlanFile(controller_->planFile());
    config_->setSpec(controller_->config());
    config_->setPlanFile(controller_->planFile());
    updateTitle();
    states_->refresh();
  });
  connect(&c, &ExplorerController::snapshotChanged, this, &MainWindow::onSnapshot);
  connect(&c, &ExplorerController::resultStateChanged, this, [this] {
    states_->refresh();
    status_->updateText();
    // A solve that failed on one option marks its field in the panel (typed, Error::field).
    const bool failed = controller_->resultState() == ResultState::Failed;
    config_->showOptionError(failed ? controller_->resultError().field : std::string(),
                             controller_->resultMessage());
  });
  connect(&c, &ExplorerController::loadFailed, this, [this](const QString& path, const QString& m) {
    showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), m);
  });
  // A length file of several columns: ask which (cancelled: the reader's reason, as for any file
  // that cannot be opened). With dialogs off (tests, screenshots) there is nobody to ask.
  connect(&c, &ExplorerController::columnNeeded, this,
          [this](const QString& path, const QStringList& columns, const QString& reason) {
            const QString title = tr("Cannot open %1").arg(QFileInfo(path).fileName());
            if (!error_dialogs_) {
              showError(title, reason);
              return;
            }
            askLengthColumn(
                this, path, columns,
                [this, path](const QString& column) { controller_->openInputFile(path, column); },
                [this, title, reason] { showError(title, reason); });
          });
  connect(&c, &ExplorerController::inputLoaded, this, [this](const QString& path) {
    settings_.addRecentFile(path);
    // The column a multi-column file opened with is remembered for it.
    const WorkloadSpec& w = controller_->workload();
    if (w.file == path.toStdString() && !w.column.empty())
      settings_.setLengthColumn(path, QString::fromStdString(w.column));
  });
  connect(&c, &ExplorerController::sweepReady, this, [this](const std::vector<SweepPoint>& pts) {
    sweep_->setPoints(pts, controller_->sweepBasis());
    // A result that arrived while this sweep ran (Reset to Defaults during a sweep) was not swept:
    // sweep again rather than leave a sweep of other settings.
    const SnapshotPtr& now = controller_->snapshot();
    if (now && sweep_dock_->isVisible() && sweep_->isStale(*now)) controller_->requestSweep();
    states_->refresh();
  });
  connect(&c, &ExplorerController::sweepFailed, sweep_, &SweepPanel::setMessage);
  connect(&c, &ExplorerController::compareReady, this,
          [this](const std::vector<CompareEntry>& entries) {
            compare_->setEntries(entries);
            states_->setCompareBasis(controller_->compareBasis());
            states_->refresh();
            exporter_->setSources(controller_->snapshot(), entries);
          });
  connect(&c, &ExplorerController::compareFailed, compare_, &CompareView::setMessage);
  connect(exporter_, &Exporter::exported, this, [this](const QString& path) {
    statusBar()->showMessage(tr("Exported to %1").arg(path), 5000);
  });
  connect(exporter_, &Exporter::failed, this,
          [this](const QString& m) { showError(tr("Export failed"), m); });
  // Every job of the window on one board: the controller's four with its own cancel (which also
  // marks a cancelled solve's result), then every other tracker the window's widgets own (the
  // export, the search, each trace job).
  for (JobTracker* jobs : {&c.pipelineJobs(), &c.sweepJobs(), &c.compareJobs(), &c.loadJobs()})
    job_board_->add(jobs, [this] { controller_->cancelAll(); });
  job_board_->addChildrenOf(this);
  // The status line shows them; Run > Cancel is enabled with its indicator.
  connect(status_, &StatusLine::busyChanged, menus_, &WindowMenus::setBusy);
  connect(&c.sweepJobs(), &JobTracker::busyChanged, sweep_, &SweepPanel::setRunning);
  connect(&c.compareJobs(), &JobTracker::busyChanged, compare_, &CompareView::setRunning);
  for (JobTracker* jobs : {&c.sweepJobs(), &c.compareJobs()})
    connect(jobs, &JobTracker::busyChanged, states_, &ViewStates::refresh);
  // Exports follow the views' freshness (the staleness rule): nothing greyed goes out as current.
  connect(states_, &ViewStates::refreshed, this, [this] {
    exporter_->setFresh(exportable(states_->resultFreshness()),
                        exportable(states_->compareFreshness()));
  });
  connect(status_, &StatusLine::cancelRequested, this, &MainWindow::cancelJobs);
}

void MainWindow::onSnapshot() {
  const SnapshotPtr& snap = controller_->snapshot();
  if (!snap) return;
  // A fitted view follows the new iteration length; a zoomed one keeps the user's range (the
  // pane's scroll bar and zoom line say where it sits). A session being opened restores its own
  // view instead (SessionIO's pending view).
  // A pinned sequence is an index into the batch: in another batch (another workload, seed or
  // budget) that index is an unrelated sequence, so the pin goes with the old batch.
  const bool same_batch = sameBatch(gantt_->model().get(), snap->gantt.get());
  const bool pending = session_->hasPendingView();
  gantt_->setModel(snap->gantt, !pending);
  if (!same_batch && !pending) gantt_->clearHighlight();
  session_->applyPendingView();
  workload_->setSnapshot(snap);
  metrics_->setSnapshot(snap);
  memory_->setSnapshot(snap);
  sweep_->setSnapshot(snap);
  config_->setLongestSequence(snap->batch_stats.max);
  config_->setResolvedSlice(snap->plan ? snap->plan->slice_size : 0, autoSliceReason(*snap));
  exporter_->setSources(snap, compare_->entries());
  status_->updateText();
  if (sweep_dock_->isVisible() && sweep_->isStale(*snap) && !controller_->sweepJobs().busy())
    controller_->requestSweep();
  states_->refresh();
}

}  // namespace slimpack::ui
