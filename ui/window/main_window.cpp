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

#include "charts/memory_chart.h"
#include "gantt/gantt_view.h"
#include "jobs/input_file.h"
#include "models/format.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "panels/metrics_panel.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/presentation_mode.h"
#include "window/session_check.h"
#include "window/settings.h"
#include "window/theme.h"
#include "window/window_menus.h"

namespace slimpack::ui {

MainWindow::MainWindow(Settings& settings, QWidget* parent)
    : QMainWindow(parent),
      settings_(settings),
      controller_(new ExplorerController(this)),
      gantt_(new GanttView),
      tabs_(new QTabWidget),
      workload_(new WorkloadPanel),
      config_(new ConfigPanel),
      metrics_(new MetricsPanel),
      memory_(new MemoryChart),
      sweep_(new SweepPanel),
      compare_(new CompareView),
      exporter_(new Exporter(this)),
      presentation_(new PresentationMode(this, gantt_, this)),
      status_stage_(new QLabel),
      status_progress_(new QProgressBar),
      status_cancel_(new QToolButton),
      status_result_(new QLabel) {
  setWindowTitle(tr("SlimPack Explorer"));
  if (QFile::exists(":/icons/slimpack-explorer.svg"))
    setWindowIcon(QIcon(QStringLiteral(":/icons/slimpack-explorer.svg")));
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
  tabs_->addTab(gantt_, tr("Gantt"));
  tabs_->addTab(compare_, tr("Compare"));
  tabs_->setDocumentMode(true);
  setCentralWidget(tabs_);
  connect(tabs_, &QTabWidget::currentChanged, this,
          [this] { exporter_->setComparisonActive(tabs_->currentWidget() == compare_); });

  addDock(tr("Workload"), "dock.workload", workload_, Qt::LeftDockWidgetArea);
  addDock(tr("Configuration"), "dock.config", config_, Qt::LeftDockWidgetArea);
  addDock(tr("Metrics"), "dock.metrics", metrics_, Qt::RightDockWidgetArea);
  addDock(tr("Memory"), "dock.memory", memory_, Qt::RightDockWidgetArea);
  sweep_dock_ = addDock(tr("Slice-size sweep"), "dock.sweep", sweep_, Qt::BottomDockWidgetArea);
  resizeDocks({findChild<QDockWidget*>("dock.workload"), findChild<QDockWidget*>("dock.metrics")},
              {340, 360}, Qt::Horizontal);
  resizeDocks({sweep_dock_}, {300}, Qt::Vertical);
  resizeDocks({findChild<QDockWidget*>("dock.metrics"), findChild<QDockWidget*>("dock.memory")},
              {380, 260}, Qt::Vertical);

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

  menus_ = new WindowMenus(*this);
  connectController();
  applyTheme(settings_.theme());
  connect(&settings_, &Settings::themeChanged, this, &MainWindow::applyTheme);
  presentation_->setApplyView([this](const SavedView& v) { applySavedView(v); });
  connect(presentation_, &PresentationMode::activeChanged, this, [this](bool on) {
    if (!on) gantt_->setTheme(ganttTheme(settings_.theme()));
  });

  if (!settings_.windowGeometry().isEmpty())
    restoreGeometry(settings_.windowGeometry());
  else
    resize(1600, 1000);
  if (!settings_.windowState().isEmpty()) restoreState(settings_.windowState());

  // The embedded default workload: a result appears as soon as the first job is done.
  controller_->setAll(controller_->workload(), controller_->config());
}

MainWindow::~MainWindow() = default;

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
  connect(compare_, &CompareView::compareRequested, &c, &ExplorerController::requestCompare);
  connect(config_, &ConfigPanel::costFileRequested, menus_, &WindowMenus::costFileDialog);
  connect(&c, &ExplorerController::inputsChanged, this, [this] {
    workload_->setSpec(controller_->workload());
    config_->setSpec(controller_->config());
  });
  connect(&c, &ExplorerController::snapshotChanged, this, &MainWindow::onSnapshot);
  connect(&c, &ExplorerController::pipelineFailed, this, [this](const QString& msg) {
    status_result_->setText(tr("<span style='color:#d64545'>Not solved:</span> %1").arg(msg));
    status_result_->setToolTip(msg);
  });
  connect(&c, &ExplorerController::loadFailed, this, [this](const QString& path, const QString& m) {
    showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), m);
  });
  connect(&c, &ExplorerController::inputLoaded, this, [this](const QString& path) {
    settings_.addRecentFile(path);
    // The title names the workload or plan shown, not a cost profile applied to it.
    if (controller_->config().cost_profile_file != path.toStdString())
      setWindowTitle(tr("SlimPack Explorer — %1").arg(QFileInfo(path).fileName()));
  });
  connect(&c, &ExplorerController::sweepReady, this, [this](const std::vector<SweepPoint>& pts) {
    sweep_->setPoints(pts, controller_->snapshot());
  });
  connect(&c, &ExplorerController::sweepFailed, sweep_, &SweepPanel::setMessage);
  connect(&c, &ExplorerController::compareReady, this,
          [this](const std::vector<CompareEntry>& entries) {
            compare_->setEntries(entries);
            exporter_->setSources(controller_->snapshot(), entries);
          });
  connect(&c, &ExplorerController::compareFailed, compare_, &CompareView::setMessage);
  connect(exporter_, &Exporter::exported, this, [this](const QString& path) {
    statusBar()->showMessage(tr("Exported to %1").arg(path), 5000);
  });
  connect(exporter_, &Exporter::failed, this,
          [this](const QString& m) { showError(tr("Export failed"), m); });
  for (JobTracker* jobs :
       {&c.pipelineJobs(), &c.sweepJobs(), &c.compareJobs(), &c.loadJobs(), &exporter_->jobs()}) {
    connect(jobs, &JobTracker::busyChanged, this, &MainWindow::onBusy);
    connect(jobs, &JobTracker::progress, this, [this](const QString& stage, double f) {
      status_stage_->setText(stage);
      status_progress_->setValue(static_cast<int>(f * 1000));
    });
  }
  connect(&c.sweepJobs(), &JobTracker::busyChanged, sweep_, &SweepPanel::setRunning);
  connect(&c.compareJobs(), &JobTracker::busyChanged, compare_, &CompareView::setRunning);
  connect(status_cancel_, &QToolButton::clicked, &c, &ExplorerController::cancelAll);
}

void MainWindow::onBusy() {
  const bool busy = controller_->busy() || exporter_->jobs().busy();
  status_stage_->setVisible(busy);
  status_progress_->setVisible(busy);
  status_cancel_->setVisible(busy);
  if (!busy) status_stage_->clear();
  if (menus_) menus_->setBusy(busy);
}

void MainWindow::onSnapshot() {
  const SnapshotPtr& snap = controller_->snapshot();
  if (!snap) return;
  // A live re-solve keeps the user's zoom; an unzoomed view follows the new iteration length.
  const auto& old = gantt_->model();
  const bool zoomed = old && !(gantt_->viewRange() == old->time_extent());
  gantt_->setModel(snap->gantt, zoomed && !pending_view_);
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
  exporter_->setSources(snap, compare_->entries());
  const SimResult& r = snap->sim;
  status_result_->setToolTip({});
  status_result_->setText(
      tr("%1 · iteration %2 · bubble %3 · %4 · solved in %5, simulated in %6")
          .arg(QString::fromStdString(snap->plan ? snap->plan->strategy : std::string()),
               formatTime(r.iteration_time, QString::fromStdString(r.time_unit)),
               formatPercent(r.bubble_ratio),
               r.tokens_per_second > 0 ? formatRate(r.tokens_per_second) : QString("-"),
               formatTime(snap->seconds_solve), formatTime(snap->seconds_simulate)));
  if (sweep_dock_->isVisible() && sweep_->isStale(*snap) && !controller_->sweepJobs().busy())
    controller_->requestSweep();
}

void MainWindow::openFile(const QString& path) {
  if (input_kind_by_name(path.toStdString()) != InputKind::Session) {
    controller_->openInputFile(path);
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
  session_path_ = path;
  settings_.addRecentFile(path);
  setWindowTitle(tr("SlimPack Explorer — %1").arg(QFileInfo(path).fileName()));
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
  return s;
}

void MainWindow::applySession(const SessionFile& session) {
  pending_view_ = session.view;
  setSavedViews(session.view.saved_views);
  controller_->setAll(session.workload, session.config);
  if (!session.plan_file.empty())
    controller_->openInputFile(QString::fromStdString(session.plan_file));
}

bool MainWindow::saveSession(const QString& path) {
  Status st = write_session_file(path.toStdString(), currentSession());
  if (!st) {
    showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
              QString::fromStdString(st.error().message));
    return false;
  }
  session_path_ = path;
  settings_.addRecentFile(path);
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
  if (gantt_->model() && v.selected_sequence < gantt_->model()->sequence_count())
    gantt_->setHighlightedSequence(v.selected_sequence);
}

void MainWindow::clearSavedViews() {
  setSavedViews({});
  statusBar()->showMessage(tr("Saved views cleared"), 3000);
}

void MainWindow::setSavedViews(std::vector<SavedView> views) {
  saved_views_ = std::move(views);
  presentation_->setViews(saved_views_);
}

void MainWindow::showError(const QString& title, const QString& message) {
  emit errorShown(title, message);
  if (!error_dialogs_) return;
  // Window-modal and asynchronous: no nested event loop, the jobs keep running.
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::showView(const QString& name) {
  if (name == "compare")
    tabs_->setCurrentWidget(compare_);
  else
    tabs_->setCurrentWidget(gantt_);
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
}

void MainWindow::closeEvent(QCloseEvent* event) {
  presentation_->leave();
  controller_->cancelAll();
  settings_.setWindowGeometry(saveGeometry());
  settings_.setWindowState(saveState());
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
