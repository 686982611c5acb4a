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
namespace {
// Version of the saved dock layout (QMainWindow::saveState); 2 = docks that scroll.
constexpr int kLayoutVersion = 2;
// Dock contents scroll instead of setting the window's minimum size: the window fits a
// 1280x720 laptop screen, and a narrow dock shows a scroll bar rather than cut labels.
QWidget* scrolling(QWidget* w) {
  auto* area = new QScrollArea;
  area->setWidget(w);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  area->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  return area;
}
}  // namespace

MainWindow::MainWindow(Settings& settings, QWidget* parent)
    : QMainWindow(parent),
      settings_(settings),
      controller_(new ExplorerController(this)),
      gantt_(new GanttView),
      gantt_pane_(new GanttPane(gantt_)),
      gantt_frame_(new StateFrame(gantt_pane_)),
      metrics_frame_(nullptr),
      memory_frame_(nullptr),
      tabs_(new QTabWidget),
      workload_(new WorkloadPanel),
      config_(new ConfigPanel),
      metrics_(new MetricsPanel),
      memory_(new MemoryChart),
      sweep_(new SweepPanel),
      compare_(new CompareView),
      search_(new SearchPanel),
      exporter_(new Exporter(this)),
      presentation_(new PresentationMode(this, gantt_, this)),
      status_stage_(new QLabel),
      status_progress_(new QProgressBar),
      status_cancel_(new QToolButton),
      status_result_(new QLabel) {
  if (QFile::exists(":/icons/slimpack-explorer.svg"))
    setWindowIcon(QIcon(QStringLiteral(":/icons/slimpack-explorer.svg")));
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
  metrics_frame_ = new StateFrame(metrics_);
  memory_frame_ = new StateFrame(memory_);
  tabs_->addTab(gantt_frame_, tr("Gantt"));
  tabs_->addTab(compare_, tr("Compare"));
  tabs_->addTab(search_, tr("Search"));
  // Traces (ui/trace): their own tab, loader and errors; openFile offers every path to it first.
  traces_ = new TraceWorkspace;
  tabs_->addTab(traces_, tr("Traces"));
  connect(traces_, &TraceWorkspace::loaded, this, [this] { tabs_->setCurrentWidget(traces_); });
  connect(traces_, &TraceWorkspace::loadFailed, this,
          [this](const QString& path, const QString& m) {
            showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), m);
          });
  tabs_->setDocumentMode(true);
  setCentralWidget(tabs_);
  connect(tabs_, &QTabWidget::currentChanged, this,
          [this] { exporter_->setComparisonActive(tabs_->currentWidget() == compare_); });

  addDock(tr("Workload"), "dock.workload", scrolling(workload_), Qt::LeftDockWidgetArea);
  addDock(tr("Configuration"), "dock.config", scrolling(config_), Qt::LeftDockWidgetArea);
  addDock(tr("Metrics"), "dock.metrics", metrics_frame_, Qt::RightDockWidgetArea);
  addDock(tr("Peak Memory per Stage"), "dock.memory", memory_frame_, Qt::RightDockWidgetArea);
  sweep_dock_ = addDock(tr("Slice-size sweep"), "dock.sweep", sweep_, Qt::BottomDockWidgetArea);
  auto* inspector = new SequenceInspector;  // a tab beside the memory chart
  inspector->follow(gantt_);
  addDock(tr("Sequence"), "dock.sequence", inspector, Qt::RightDockWidgetArea);

  status_progress_->setRange(0, 1000);
  status_progress_->setMaximumWidth(160);
  status_progress_->setTextVisible(false);
  if (QFile::exists(":/icons/cancel.svg")) status_cancel_->setIcon(QIcon(":/icons/cancel.svg"));
  status_cancel_->setText(tr("Cancel"));
  status_cancel_->setToolTip(tr("Cancel the running job (Esc)"));
  statusBar()->addWidget(status_result_, 1);
  statusBar()->addPermanentWidget(status_stage_);
  statusBar()->addPermanentWidget(status_progress_);
  statusBar()->addPermanentWidget(status_cancel_);
  onBusy();

  history_ = new EditHistory(*controller_, this);
  states_ = new ViewStates(*controller_,
                           {gantt_frame_, metrics_frame_, memory_frame_, workload_->resultFrame()},
                           sweep_, compare_, this);
  menus_ = new WindowMenus(*this);
  connectController();
  search_->setBasis(controller_->workload(), controller_->config());
  new TraceHooks(*this, *controller_, settings_, *traces_);  // ui/window/trace_hooks.h
  qApp->installEventFilter(this);
  applyTheme(settings_.theme());
  connect(&settings_, &Settings::themeChanged, this, &MainWindow::applyTheme);
  presentation_->setApplyView([this](const SavedView& v) { applySavedView(v); });
  connect(presentation_, &PresentationMode::activeChanged, this, [this](bool on) {
    if (!on) gantt_->setTheme(ganttTheme(settings_.theme()));
  });

  // The layout a fresh start has, sized to the screen, is what View > Reset Layout goes back to.
  // resize() sets the client area; the window manager adds its frame (title bar, borders) around
  // it, so on a small screen (1280x720) a client as tall as the screen put the status bar below
  // the edge. Leave room for a usual frame.
  constexpr int kFrameAllowanceW = 16, kFrameAllowanceH = 48;
  const QSize avail = screen() ? screen()->availableSize() : QSize(1600, 1000);
  resize(std::min(1600, avail.width() - kFrameAllowanceW),
         std::min(1000, avail.height() - kFrameAllowanceH));
  arrangeDocks();
  // The user's layout of the last session (View > Reset Layout goes back to the fresh one).
  if (!settings_.windowGeometry().isEmpty()) restoreGeometry(settings_.windowGeometry());
  // Layouts saved by versions whose docks could not shrink (squashed on small screens) carry
  // another version number and are not restored.
  if (!settings_.windowState().isEmpty()) restoreState(settings_.windowState(), kLayoutVersion);
  updateTitle();

  // The embedded default workload: a result appears as soon as the first job is done.
  controller_->setAll(controller_->workload(), controller_->config());
}

MainWindow::~MainWindow() {
  qApp->removeEventFilter(this);
}

QUndoStack* MainWindow::undoStack() const {
  return history_->stack();
}

void MainWindow::arrangeDocks() {
  // Sizes in proportion to the window, so that a laptop screen gets a usable centre.
  const int w = std::max(width(), 800);
  const int h = std::max(height(), 500);
  auto* workload = findChild<QDockWidget*>("dock.workload");
  auto* metrics = findChild<QDockWidget*>("dock.metrics");
  auto* memory = findChild<QDockWidget*>("dock.memory");
  // The sequence inspector shares the memory chart's place, as a tab behind it.
  tabifyDockWidget(memory, findChild<QDockWidget*>("dock.sequence"));
  memory->raise();
  resizeDocks({workload, metrics}, {std::clamp(w / 5, 250, 340), std::clamp(w / 5, 250, 360)},
              Qt::Horizontal);
  resizeDocks({sweep_dock_}, {std::clamp(h * 3 / 10, 170, 300)}, Qt::Vertical);
  resizeDocks({metrics, memory}, {h * 38 / 100, h * 26 / 100}, Qt::Vertical);
  // The configuration has more rows than the workload: give it the larger share.
  resizeDocks({workload, findChild<QDockWidget*>("dock.config")}, {h * 28 / 100, h * 36 / 100},
              Qt::Vertical);
}

void MainWindow::resetLayout() {
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    dock->setFloating(false);
    dock->show();
  }
  for (auto* dock :
       {findChild<QDockWidget*>("dock.workload"), findChild<QDockWidget*>("dock.config")})
    addDockWidget(Qt::LeftDockWidgetArea, dock);
  for (auto* dock :
       {findChild<QDockWidget*>("dock.metrics"), findChild<QDockWidget*>("dock.memory")})
    addDockWidget(Qt::RightDockWidgetArea, dock);
  addDockWidget(Qt::BottomDockWidgetArea, sweep_dock_);
  for (QToolBar* bar : findChildren<QToolBar*>()) bar->show();
  arrangeDocks();
}

void MainWindow::cancelJobs() {
  controller_->cancelAll();
  exporter_->jobs().cancel();
  search_->jobs().cancel();
  traces_->cancelLoad();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  // Escape cancels the running job wherever the focus is in this window (a spin box, the Gantt
  // with a pinned highlight, a table). The shortcut-override step comes first: taking it there
  // keeps the key from reaching a widget that would use Escape for something else.
  const auto type = event->type();
  // Ctrl+Z in a spin box or an editable combo box (Recompute) undoes the last configuration change
  // (Edit > Undo), not the field's text: its value is already applied, and its text history knows
  // nothing of other controls.
  if (type == QEvent::ShortcutOverride && watched->isWidgetType()) {
    auto* key = static_cast<QKeyEvent*>(event);
    auto* w = static_cast<QWidget*>(watched);
    const bool in_spin_box =
        qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QAbstractSpinBox*>(w->parentWidget()) ||
        qobject_cast<QComboBox*>(w) || qobject_cast<QComboBox*>(w->parentWidget());
    if (in_spin_box && w->window() == this &&
        (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
         QKeySequence(key->keyCombination()) == QKeySequence(tr("Ctrl+Y")) ||
         QKeySequence(key->keyCombination()) == QKeySequence(tr("Ctrl+Shift+Z")))) {
      event->ignore();
      return true;
    }
  }
  if ((type == QEvent::ShortcutOverride || type == QEvent::KeyPress) && watched->isWidgetType() &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape &&
      static_cast<QWidget*>(watched)->window() == this && !presentation_->active()) {
    if (type == QEvent::ShortcutOverride) {
      if (controller_->busy() || exporter_->jobs().busy()) {
        cancelJobs();
        swallow_escape_ = true;
        event->accept();
        return true;
      }
    } else if (swallow_escape_) {
      swallow_escape_ = false;
      return true;
    }
  }
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::updateTitle() {
  // The platform adds " — SlimPack Explorer" (the application's display name) itself.
  QString name;
  if (!controller_->planFile().isEmpty())
    name = QFileInfo(controller_->planFile()).fileName();
  else if (!session_path_.isEmpty())
    name = QFileInfo(session_path_).fileName();
  else if (!controller_->workload().file.empty())
    name = QFileInfo(QString::fromStdString(controller_->workload().file)).fileName();
  else
    name = tr("%1 (preset)").arg(QString::fromStdString(controller_->workload().preset));
  setWindowTitle(name);
}

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* w,
                                 Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);  // saveState/restoreState key
  dock->setWidget(w);
  addDockWidget(area, dock);
  return dock;
}

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
  connect(search_, &SearchPanel::configurationChosen, this, [this](const ConfigSpec& spec) {
    config_->setSpec(spec);
    controller_->setConfig(spec);
    tabs_->setCurrentWidget(gantt_frame_);
  });
  connect(config_, &ConfigPanel::costFileRequested, menus_, &WindowMenus::costFileDialog);
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
    updateStatusText();
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
  for (JobTracker* jobs : {&c.pipelineJobs(), &c.sweepJobs(), &c.compareJobs(), &c.loadJobs(),
                           &exporter_->jobs(), &search_->jobs()}) {
    connect(jobs, &JobTracker::busyChanged, this, &MainWindow::onBusy);
    connect(jobs, &JobTracker::progress, this, [this](const QString& stage, double f) {
      status_stage_->setText(stage);
      status_progress_->setValue(static_cast<int>(f * 1000));
    });
  }
  connect(&c.sweepJobs(), &JobTracker::busyChanged, sweep_, &SweepPanel::setRunning);
  connect(&c.compareJobs(), &JobTracker::busyChanged, compare_, &CompareView::setRunning);
  for (JobTracker* jobs : {&c.sweepJobs(), &c.compareJobs()})
    connect(jobs, &JobTracker::busyChanged, states_, &ViewStates::refresh);
  connect(status_cancel_, &QToolButton::clicked, this, &MainWindow::cancelJobs);
}

void MainWindow::onBusy() {
  const bool busy = controller_->busy() || exporter_->jobs().busy() || search_->jobs().busy();
  status_stage_->setVisible(busy);
  status_progress_->setVisible(busy);
  status_cancel_->setVisible(busy);
  if (!busy) status_stage_->clear();
  if (menus_) menus_->setBusy(busy);
}

void MainWindow::onSnapshot() {
  const SnapshotPtr& snap = controller_->snapshot();
  if (!snap) return;
  // A fitted view follows the new iteration length; a zoomed one keeps the user's range (the
  // pane's scroll bar and zoom line say where it sits).
  gantt_->setModel(snap->gantt, !pending_view_);
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
  s.view.saved_views = saved_views_;
  s.trace_options = traces_->traceOptions();
  s.traces = traces_->sessionPart();
  return s;
}

void MainWindow::applySession(const SessionFile& session) {
  pending_view_ = session.view;
  setSavedViews(session.view.saved_views);
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
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
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

void MainWindow::showError(const QString& title, const QString& raw) {
  const QString message = readableMessage(raw, 1200);
  emit errorShown(title, message);
  if (!error_dialogs_) return;
  // Window-modal and asynchronous: no nested event loop, the jobs keep running. The title goes
  // into the box (a window manager cuts long window titles); the window title stays short.
  auto* box =
      new QMessageBox(QMessageBox::Warning, tr("SlimPack Explorer"), title, QMessageBox::Ok, this);
  box->setInformativeText(message);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::showView(const QString& name) {
  if (name == "compare")
    tabs_->setCurrentWidget(compare_);
  else if (name == "search")
    tabs_->setCurrentWidget(search_);
  else if (name == "traces" || name == "measured")
    tabs_->setCurrentWidget(traces_), traces_->setSimCheckVisible(name == "measured");
  else
    tabs_->setCurrentWidget(gantt_frame_);  // the tab's page (the Gantt sits inside it)
  if (name == "sweep") sweep_dock_->show(), sweep_dock_->raise();
}

void MainWindow::applyTheme(const QString& theme) {
  ui::applyTheme(theme);
  const bool dark = theme == "dark";
  if (!presentation_->active()) gantt_->setTheme(ganttTheme(theme));
  compare_->setTheme(ganttTheme(theme));
  workload_->setDark(dark);
  memory_->setDark(dark);
  sweep_->setDark(dark);
  search_->setDark(dark);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  presentation_->leave();
  cancelJobs();
  settings_.setWindowGeometry(saveGeometry());
  settings_.setWindowState(saveState(kLayoutVersion));
  settings_.sync();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) openFile(url.toLocalFile());
  event->acceptProposedAction();
}

}  // namespace slimpack::ui
