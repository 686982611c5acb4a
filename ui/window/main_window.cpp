// MainWindow: composing the tabs and docks, the window's size and layout, and its events.
#include "window/main_window.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>
#include <QToolBar>

#include "charts/memory_chart.h"
#include "gantt/gantt_pane.h"
#include "gantt/gantt_view.h"
#include "gantt/sequence_inspector.h"
#include "jobs/job_board.h"
#include "models/format.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "panels/dataset_panel.h"
#include "panels/metrics_panel.h"
#include "panels/search_panel.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"
#include "panels/workload_panel.h"
#include "trace/trace_workspace.h"
#include "window/edit_history.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/presentation_mode.h"
#include "window/saved_views.h"
#include "window/session_io.h"
#include "window/settings.h"
#include "window/status_line.h"
#include "window/theme.h"
#include "window/trace_hooks.h"
#include "window/view_states.h"
#include "window/window_menus.h"

namespace slimpack::ui {
namespace {
// Version of the saved dock layout (QMainWindow::saveState); 2 = docks that scroll.
constexpr int kLayoutVersion = 2;
// The least a tab page asks of the window (see buildTabs).
constexpr QSize kPageMinimum(420, 240);
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
      saved_views_(new SavedViews(*this)),
      presentation_(new PresentationMode(this, gantt_, *saved_views_, this)),
      job_board_(new JobBoard(this)) {
  if (QFile::exists(":/icons/slimpack-explorer.svg"))
    setWindowIcon(QIcon(QStringLiteral(":/icons/slimpack-explorer.svg")));
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
  metrics_frame_ = new StateFrame(metrics_);
  memory_frame_ = new StateFrame(memory_);
  buildTabs();
  buildDocks();

  history_ = new EditHistory(*controller_, this);
  states_ = new ViewStates(*controller_,
                           {gantt_frame_, metrics_frame_, memory_frame_, workload_->resultFrame()},
                           sweep_, compare_, this);
  status_ = new StatusLine(statusBar(), *controller_, *job_board_, *states_, this);
  session_ = new SessionIO(*this, *saved_views_);
  connect(session_, &SessionIO::pathChanged, this, &MainWindow::updateTitle);
  menus_ = new WindowMenus(*this);
  connectController();
  search_->setBasis(controller_->workload(), controller_->config());
  new TraceHooks(*this, *controller_, settings_, *traces_);  // ui/window/trace_hooks.h
  qApp->installEventFilter(this);
  applyTheme(settings_.theme());
  connect(&settings_, &Settings::themeChanged, this, &MainWindow::applyTheme);
  connect(presentation_, &PresentationMode::activeChanged, this, [this](bool on) {
    if (!on) gantt_->setTheme(ganttTheme(settings_.theme()));
  });
  sizeFirstWindow();
  updateTitle();

  // The embedded default workload: a result appears as soon as the first job is done.
  controller_->setAll(controller_->workload(), controller_->config());
}

void MainWindow::buildTabs() {
  tabs_->addTab(gantt_frame_, tr("Gantt"));
  tabs_->addTab(compare_, tr("Compare"));
  tabs_->addTab(search_, tr("Search"));
  // Every batch of the workload (ui/panels/dataset_panel.h); a batch picked there becomes the
  // workload, as an edit of the workload panel would.
  auto* dataset = new DatasetPanel;
  tabs_->addTab(dataset, tr("Dataset"));
  connect(controller_, &ExplorerController::inputsChanged, dataset,
          [this, dataset] { dataset->setBasis(controller_->workload(), controller_->config()); });
  dataset->setBasis(controller_->workload(), controller_->config());
  connect(dataset, &DatasetPanel::batchChosen, this, [this](const WorkloadSpec& w) {
    workload_->setSpec(w);
    controller_->setWorkload(w);
    tabs_->setCurrentWidget(gantt_frame_);
  });
  // Traces (ui/trace): their own tab, loader and errors; openFile offers every path to it first.
  traces_ = new TraceWorkspace;
  tabs_->addTab(traces_, tr("Traces"));
  connect(traces_, &TraceWorkspace::loaded, this, [this] { tabs_->setCurrentWidget(traces_); });
  connect(traces_, &TraceWorkspace::loadFailed, this,
          [this](const QString& path, const QString& m) {
            showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), m);
          });
  tabs_->setDocumentMode(true);
  // A page's own minimum (the Traces and Search tabs' rows of controls, the search plot) would
  // become the window's: it grew to 1181x653, more than a 1280x720 laptop leaves around the docks.
  // Pages get a fixed modest minimum instead; below their natural size they are squeezed.
  for (int i = 0; i < tabs_->count(); ++i) tabs_->widget(i)->setMinimumSize(kPageMinimum);
  setCentralWidget(tabs_);
  connect(tabs_, &QTabWidget::currentChanged, this,
          [this] { exporter_->setComparisonActive(tabs_->currentWidget() == compare_); });
}

void MainWindow::buildDocks() {
  // The side docks run the window's full height and the sweep sits under the centre only: with
  // the sweep across the bottom, the workload dock cut its histogram and the configuration and
  // metrics scrolled at the default size.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  addDock(tr("Workload"), "dock.workload", scrolling(workload_), Qt::LeftDockWidgetArea);
  addDock(tr("Configuration"), "dock.config", scrolling(config_), Qt::LeftDockWidgetArea);
  addDock(tr("Metrics"), "dock.metrics", metrics_frame_, Qt::RightDockWidgetArea);
  addDock(tr("Peak Memory per Stage"), "dock.memory", memory_frame_, Qt::RightDockWidgetArea);
  sweep_dock_ = addDock(tr("Slice-size sweep"), "dock.sweep", sweep_, Qt::BottomDockWidgetArea);
  auto* inspector = new SequenceInspector;  // a tab beside the memory chart
  inspector->follow(gantt_);
  addDock(tr("Sequence"), "dock.sequence", inspector, Qt::RightDockWidgetArea);
}

void MainWindow::sizeFirstWindow() {
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
  // A geometry saved on a larger screen (or by a version with a larger minimum) never opens
  // larger than this screen, nor off it.
  const QRect screen_area = screen() ? screen()->availableGeometry() : QRect();
  if (!isMaximized() && !isFullScreen() && !screen_area.isEmpty()) {
    resize(std::min(width(), screen_area.width() - kFrameAllowanceW),
           std::min(height(), screen_area.height() - kFrameAllowanceH));
    if (!screen_area.contains(geometry().topLeft())) move(screen_area.topLeft());
  }
}

MainWindow::~MainWindow() {
  qApp->removeEventFilter(this);
  // Children are deleted by ~QWidget, when this is no longer a MainWindow; one that signals on its
  // way out (the job board, when a busy tracker goes) must not reach a MainWindow slot then.
  for (QObject* child : findChildren<QObject*>())
    QObject::disconnect(child, nullptr, this, nullptr);
  // Nor the status line, which asks the controller (deleted first) whether it is busy.
  QObject::disconnect(job_board_, nullptr, status_, nullptr);
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
  // The metrics dock is wide enough for the per-stage table's five columns (Headroom last)
  // without a horizontal scroll bar at the default size.
  resizeDocks({workload, metrics},
              {std::clamp(w / 5, 250, 340), std::clamp(w * 23 / 100, 250, 380)}, Qt::Horizontal);
  resizeDocks({sweep_dock_}, {std::clamp(h * 3 / 10, 170, 300)}, Qt::Vertical);
  // The side columns run the full height (buildDocks): the metrics table takes the larger share.
  resizeDocks({metrics, memory}, {h * 44 / 100, h * 26 / 100}, Qt::Vertical);
  // The configuration has more rows than the workload: give it the larger share. The workload
  // dock keeps its length histogram whole, axis included.
  resizeDocks({workload, findChild<QDockWidget*>("dock.config")}, {h * 36 / 100, h * 52 / 100},
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
  controller_->cancelAll();  // also a change still waiting for its debounce, which no job holds
  job_board_->cancelAll();
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
      if (controller_->busy() || job_board_->busy()) {
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
  else if (!session_->sessionPath().isEmpty())
    name = QFileInfo(session_->sessionPath()).fileName();
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

QString MainWindow::currentTabName() const {
  QWidget* w = tabs_->currentWidget();
  if (w == compare_) return QStringLiteral("compare");
  if (w == search_) return QStringLiteral("search");
  if (w == traces_) return QStringLiteral("traces");
  return QStringLiteral("gantt");
}

void MainWindow::showView(const QString& name) {
  if (name == "compare")
    tabs_->setCurrentWidget(compare_);
  else if (name == "search")
    tabs_->setCurrentWidget(search_);
  else if (name == "traces" || name == "measured" || name == "bubbles")
    tabs_->setCurrentWidget(traces_), traces_->setSimCheckVisible(name != "traces"),
        traces_->setBubblesVisible(name == "bubbles");
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
    if (url.isLocalFile()) session_->openFile(url.toLocalFile());
  event->acceptProposedAction();
}

}  // namespace slimpack::ui
