// MainWindow: opening files and sessions, saving sessions, and the saved views.
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

void MainWindow::openFile(const QString& path, const QString& column) {
  if (QFileInfo(path).isDir()) {  // a run's folder (dropped or named): File > Open Run…
    if (auto* hooks = findChild<TraceHooks*>()) hooks->openRun({path});
    return;
  }
  if (traces_->offerFile(path)) return;  // a profiler trace: the Traces tab loads it
  if (input_kind_by_name(path.toStdString()) != InputKind::Session) {
    controller_->openInputFile(path, column.isEmpty() ? settings_.lengthColumn(path) : column);
    return;
  }
  auto session = read_session_file(path.toStdString());
  if (!session) {
    showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
              QString::fromStdString(session.error().message));
    return;
  }
  // A session naming a broken file or impossible configuration is refused before anything changes.
  if (Status st = check_session_inputs(*session, path.toStdString()); !st) {
    showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
              QString::fromStdString(st.error().message));
    return;
  }
  applySession(*session);
  traces_->restoreSessionPart(session->trace_options, session->traces);
  session_path_ = path;
  settings_.addRecentFile(path);
  updateTitle();
}

SessionFile MainWindow::currentSession() const {
  SessionFile s;
  s.workload = controller_->workload();
  s.config = controller_->config();
  s.plan_file = controller_->planFile().toStdString();
  const TimeRange r = gantt_->viewRange();
  s.view.t0 = r.t0;
  s.view.t1 = r.t1;
  s.view.selected_sequence = gantt_->pinnedSequence();
  s.view.tab = currentTabName().toStdString();
  s.view.saved_views = saved_views_;
  s.trace_options = traces_->traceOptions();
  s.traces = traces_->sessionPart();
  s.search = search_->sessionPart();
  return s;
}

QString MainWindow::currentTabName() const {
  QWidget* w = tabs_->currentWidget();
  if (w == compare_) return QStringLiteral("compare");
  if (w == search_) return QStringLiteral("search");
  if (w == traces_) return QStringLiteral("traces");
  return QStringLiteral("gantt");
}

void MainWindow::applySession(const SessionFile& session) {
  pending_view_ = session.view;
  setSavedViews(session.view.saved_views);
  search_->restoreSessionPart(session.search);
  // Back on the tab that was in front when it was saved; the Traces tab only with the traces the
  // session reopens (an empty Traces tab in front hid the plan the session is about).
  const std::string& tab = session.view.tab;
  const bool traces = tab == "traces" && !session.traces.files.empty();
  tabs_->setCurrentWidget(tab == "compare"  ? static_cast<QWidget*>(compare_)
                          : tab == "search" ? static_cast<QWidget*>(search_)
                          : traces          ? static_cast<QWidget*>(traces_)
                                            : static_cast<QWidget*>(gantt_frame_));
  controller_->setAll(session.workload, session.config);
  if (!session.plan_file.empty())
    controller_->openInputFile(QString::fromStdString(session.plan_file));
}

bool MainWindow::saveSession(const QString& given) {
  QString path = given;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".slimpack");
  // With the Traces tab's part (core/app/session_file.h).
  Status st = write_session_file(path.toStdString(), currentSession());
  if (!st) {
    showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
              QString::fromStdString(st.error().message));
    return false;
  }
  session_path_ = path;
  settings_.addRecentFile(path);
  updateTitle();
  // A Search field being typed that does not read is saved as automatic: say so.
  const QString unsaved = search_->unsavedField();
  if (unsaved.isEmpty())
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  else
    statusBar()->showMessage(tr("Saved %1; %2 (saved as automatic)").arg(path, unsaved), 15000);
  return true;
}

void MainWindow::saveCurrentView() {
  SavedView v;
  v.name = "view " + std::to_string(saved_views_.size() + 1);
  const GanttView* source = gantt_;
  if (tabs_->currentWidget() == compare_ && !compare_->views().empty()) {
    v.tab = "compare";
    source = compare_->views().front();
  }
  const TimeRange r = source->viewRange();
  v.t0 = r.t0;
  v.t1 = r.t1;
  v.selected_sequence = source->pinnedSequence();
  std::vector<SavedView> views = saved_views_;
  views.push_back(std::move(v));
  setSavedViews(std::move(views));
  statusBar()->showMessage(
      tr("Saved view %1 (step through them in presentation mode)").arg(saved_views_.size()), 4000);
}

void MainWindow::applySavedView(const SavedView& v) {
  if (v.tab == "compare") {
    showView(QStringLiteral("compare"));
    if (v.t1 > v.t0) compare_->setViewRange(v.t0, v.t1);
    compare_->setHighlightedSequence(v.selected_sequence);
    return;
  }
  showView(QStringLiteral("gantt"));
  if (v.t1 > v.t0) gantt_->setViewRange(v.t0, v.t1);
  // A view without a pinned sequence shows none: the previous view's highlight (pinned or under
  // the presenter's resting mouse) goes.
  if (v.selected_sequence < 0 || !gantt_->model() ||
      v.selected_sequence >= gantt_->model()->sequence_count())
    gantt_->clearHighlight();
  else
    gantt_->setHighlightedSequence(v.selected_sequence);
}

void MainWindow::clearSavedViews() {
  setSavedViews({});
  statusBar()->showMessage(tr("Saved views cleared"), 3000);
}

void MainWindow::renameSavedView(std::size_t index, const QString& name) {
  if (index >= saved_views_.size() || name.trimmed().isEmpty()) return;
  std::vector<SavedView> views = saved_views_;
  views[index].name = name.trimmed().toStdString();
  setSavedViews(std::move(views));
}

void MainWindow::setSavedViews(std::vector<SavedView> views) {
  saved_views_ = std::move(views);
  presentation_->setViews(saved_views_);
}

}  // namespace slimpack::ui
