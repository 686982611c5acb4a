#include "window/session_io.h"

#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

#include "app/input_file.h"
#include "gantt/gantt_view.h"
#include "panels/compare_view.h"
#include "panels/search_panel.h"
#include "panels/state_frame.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/saved_views.h"
#include "window/session_check.h"
#include "window/settings.h"
#include "window/trace_hooks.h"

namespace slimpack::ui {

SessionIO::SessionIO(MainWindow& window, SavedViews& saved_views)
    : QObject(&window), window_(window), saved_views_(saved_views) {}

void SessionIO::openFile(const QString& path, const QString& column) {
  if (QFileInfo(path).isDir()) {  // a run's folder (dropped or named): File > Open Run…
    if (auto* hooks = window_.findChild<TraceHooks*>()) hooks->openRun({path});
    return;
  }
  if (window_.traceWorkspace()->offerFile(path)) return;  // a trace: the Traces tab loads it
  ExplorerController& controller = window_.controller();
  if (input_kind_by_name(path.toStdString()) != InputKind::Session) {
    controller.openInputFile(path,
                             column.isEmpty() ? window_.settings().lengthColumn(path) : column);
    return;
  }
  auto session = read_session_file(path.toStdString());
  if (!session) {
    window_.showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                      QString::fromStdString(session.error().message));
    return;
  }
  // A session naming a broken file or impossible configuration is refused before anything changes.
  if (Status st = check_session_inputs(*session, path.toStdString()); !st) {
    window_.showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                      QString::fromStdString(st.error().message));
    return;
  }
  applySession(*session);
  window_.traceWorkspace()->restoreSessionPart(session->trace_options, session->traces);
  setPath(path);
}

SessionFile SessionIO::currentSession() const {
  const ExplorerController& controller = window_.controller();
  const GanttView* gantt = window_.ganttView();
  const TraceWorkspace* traces = window_.traceWorkspace();
  SessionFile s;
  s.workload = controller.workload();
  s.config = controller.config();
  s.plan_file = controller.planFile().toStdString();
  const TimeRange r = gantt->viewRange();
  s.view.t0 = r.t0;
  s.view.t1 = r.t1;
  s.view.selected_sequence = gantt->pinnedSequence();
  s.view.tab = window_.currentTabName().toStdString();
  s.view.saved_views = saved_views_.views();
  s.trace_options = traces->traceOptions();
  s.traces = traces->sessionPart();
  s.search = window_.searchPanel()->sessionPart();
  return s;
}

void SessionIO::applySession(const SessionFile& session) {
  pending_view_ = session.view;
  saved_views_.setViews(session.view.saved_views);
  window_.searchPanel()->restoreSessionPart(session.search);
  // Back on the tab that was in front when it was saved; the Traces tab only with the traces the
  // session reopens (an empty Traces tab in front hid the plan the session is about).
  const std::string& tab = session.view.tab;
  const bool traces = tab == "traces" && !session.traces.files.empty();
  window_.tabs()->setCurrentWidget(tab == "compare"  ? static_cast<QWidget*>(window_.compareView())
                                   : tab == "search" ? static_cast<QWidget*>(window_.searchPanel())
                                   : traces ? static_cast<QWidget*>(window_.traceWorkspace())
                                            : static_cast<QWidget*>(window_.ganttFrame()));
  ExplorerController& controller = window_.controller();
  controller.setAll(session.workload, session.config);
  if (!session.plan_file.empty())
    controller.openInputFile(QString::fromStdString(session.plan_file));
}

bool SessionIO::saveSession(const QString& given) {
  QString path = given;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".slimpack");
  // With the Traces tab's part (core/app/session_file.h).
  Status st = write_session_file(path.toStdString(), currentSession());
  if (!st) {
    window_.showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
                      QString::fromStdString(st.error().message));
    return false;
  }
  setPath(path);
  // A Search field being typed that does not read is saved as automatic: say so.
  const QString unsaved = window_.searchPanel()->unsavedField();
  if (unsaved.isEmpty())
    window_.statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  else
    window_.statusBar()->showMessage(tr("Saved %1; %2 (saved as automatic)").arg(path, unsaved),
                                     15000);
  return true;
}

void SessionIO::applyPendingView() {
  if (!pending_view_) return;
  GanttView* gantt = window_.ganttView();
  if (pending_view_->t1 > pending_view_->t0)
    gantt->setViewRange(pending_view_->t0, pending_view_->t1);
  gantt->setHighlightedSequence(pending_view_->selected_sequence);
  pending_view_.reset();
}

void SessionIO::setPath(const QString& path) {
  // A recent file, and the title names the session.
  path_ = path;
  window_.settings().addRecentFile(path);
  emit pathChanged();
}

}  // namespace slimpack::ui
