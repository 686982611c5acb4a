// MainWindow: the busy indicator, a new result reaching every panel, and the status line.
#include "window/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSlider>
#include <QToolBar>
#include <QUndoStack>

#include "app/input_file.h"
#include "charts/memory_chart.h"
#include "common/json_util.h"
#include "common/output_file.h"
#include "gantt/gantt_pane.h"
#include "gantt/gantt_view.h"
#include "gantt/sequence_inspector.h"
#include "jobs/job_board.h"
#include "models/format.h"
#include "models/metrics_model.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "panels/metrics_panel.h"
#include "panels/search_panel.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "trace/trace_workspace.h"
#include "window/column_chooser.h"
#include "window/edit_history.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/presentation_mode.h"
#include "window/session_check.h"
#include "window/settings.h"
#include "window/theme.h"
#include "window/trace_hooks.h"
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

void MainWindow::onBusy() {
  const bool busy = controller_->busy() || job_board_->busy();
  status_stage_->setVisible(busy);
  status_progress_->setVisible(busy);
  status_cancel_->setVisible(busy);
  if (!busy) status_stage_->clear();
  const QStringList running = job_board_->running();
  status_cancel_->setToolTip(running.isEmpty()
                                 ? tr("Cancel the running job (Esc)")
                                 : tr("Cancel (Esc): %1").arg(running.join(QStringLiteral(", "))));
  if (menus_) menus_->setBusy(busy);
}

void MainWindow::onSnapshot() {
  const SnapshotPtr& snap = controller_->snapshot();
  if (!snap) return;
  // A fitted view follows the new iteration length; a zoomed one keeps the user's range (the
  // pane's scroll bar and zoom line say where it sits).
  // A pinned sequence is an index into the batch: in another batch (another workload, seed or
  // budget) that index is an unrelated sequence, so the pin goes with the old batch.
  const bool same_batch = sameBatch(gantt_->model().get(), snap->gantt.get());
  gantt_->setModel(snap->gantt, !pending_view_);
  if (!same_batch && !pending_view_) gantt_->clearHighlight();
  if (pending_view_) {
    if (pending_view_->t1 > pending_view_->t0)
      gantt_->setViewRange(pending_view_->t0, pending_view_->t1);
    gantt_->setHighlightedSequence(pending_view_->selected_sequence);
    pending_view_.reset();
  }
  workload_->setSnapshot(snap);
  metrics_->setSnapshot(snap);
  memory_->setSnapshot(snap);
  sweep_->setSnapshot(snap);
  config_->setLongestSequence(snap->batch_stats.max);
  config_->setResolvedSlice(snap->plan ? snap->plan->slice_size : 0, autoSliceReason(*snap));
  exporter_->setSources(snap, compare_->entries());
  updateStatusText();
  if (sweep_dock_->isVisible() && sweep_->isStale(*snap) && !controller_->sweepJobs().busy())
    controller_->requestSweep();
  states_->refresh();
}

void MainWindow::updateStatusText() {
  const SnapshotPtr& snap = controller_->snapshot();
  switch (controller_->resultState()) {
    case ResultState::Failed:
    case ResultState::Cancelled: {
      // The same words as the banner on the views.
      status_result_->setText(QStringLiteral("<span style='color:#d64545'>%1</span>")
                                  .arg(states_->resultBanner(false).toHtmlEscaped()));
      status_result_->setToolTip(states_->resultBanner());
      return;
    }
    case ResultState::Computing:
    case ResultState::Current:
      break;
  }
  if (!snap) return;
  const SimResult& r = snap->sim;
  QString text = tr("%1 · iteration %2 · bubble %3 · %4 · solved in %5, simulated in %6")
                     .arg(QString::fromStdString(snap->plan ? snap->plan->strategy : std::string()),
                          formatTime(r.iteration_time, QString::fromStdString(r.time_unit)),
                          formatPercent(r.bubble_ratio),
                          r.tokens_per_second > 0 ? formatRate(r.tokens_per_second) : QString("-"),
                          formatTime(snap->seconds_solve), formatTime(snap->seconds_simulate))
                     .toHtmlEscaped();
  const QString fallback = interleavedFallback(*snap);
  if (!fallback.isEmpty())
    text +=
        QStringLiteral(" · <span style='color:#b06000'>%1</span>").arg(fallback.toHtmlEscaped());
  status_result_->setText(text);
  status_result_->setToolTip(fallback);
}

}  // namespace slimpack::ui
