#include "window/window_menus.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoStack>

#include "gantt/gantt_view.h"
#include "panels/compare_view.h"
#include "window/about_dialog.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/help_dialogs.h"
#include "window/main_window.h"
#include "window/presentation_mode.h"
#include "window/saved_views.h"
#include "window/session_io.h"
#include "window/settings.h"
#include "window/theme.h"
#include "window/trace_hooks.h"

namespace slimpack::ui {
namespace {
// The icons are compiled into the program (resources/explorer.qrc); tests run without them.
QIcon icon(const char* name) {
  const QString path = QStringLiteral(":/icons/%1.svg").arg(name);
  return QFile::exists(path) ? QIcon(path) : QIcon();
}
const QString kInputFilter = QObject::tr(
    "Explorer files (*.slimpack *.csv *.txt *.json *.jsonl *.json.gz);;Sessions (*.slimpack);;"
    "Length files and plans (*.csv *.txt *.json *.jsonl);;"
    "Traces, one file per rank (*.json *.json.gz *.pt.trace.json);;All files (*)");
}  // namespace

WindowMenus::WindowMenus(MainWindow& window) : QObject(&window), window_(window) {
  buildFileMenu();
  buildEditMenu();
  buildViewMenu();
  buildRunMenu();
  QMenu* help = window_.menuBar()->addMenu(tr("&Help"));
  QAction* guide = help->addAction(tr("&User Guide"), this, [this] { showUserGuide(&window_); });
  guide->setShortcut(QKeySequence::HelpContents);
  if (guide->shortcut().isEmpty()) guide->setShortcut(QKeySequence(Qt::Key_F1));
  help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showKeyboardShortcuts(&window_); })
      ->setShortcut(QKeySequence(tr("Ctrl+/")));
  help->addSeparator();
  QAction* about =
      help->addAction(tr("&About SlimPack Explorer"), this, [this] { showAboutDialog(&window_); });
  about->setMenuRole(QAction::AboutRole);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  connect(&window_.settings(), &Settings::recentFilesChanged, this, &WindowMenus::rebuildRecent);
}

void WindowMenus::buildFileMenu() {
  QMenu* file = window_.menuBar()->addMenu(tr("&File"));
  QToolBar* bar = window_.addToolBar(tr("Main"));
  bar->setObjectName("toolbar.main");
  bar->setIconSize(QSize(20, 20));
  QAction* open = file->addAction(icon("open"), tr("&Open…"), this, &WindowMenus::openFileDialog);
  open->setShortcut(QKeySequence::Open);
  open->setToolTip(tr("Open a length file, plan or session (you can also drop files here)"));
  file->addAction(tr("Open &Session…"), this, &WindowMenus::openSessionDialog);
  file->addAction(tr("Open &Run…"), this,
                  [this] {
                    // A folder with a plan (or schedule) file and one trace per rank of its run.
                    const QString dir = QFileDialog::getExistingDirectory(
                        &window_, tr("Open Run (a folder with the plan and its rank traces)"),
                        window_.settings().lastDirectory());
                    if (auto* hooks = window_.findChild<TraceHooks*>(); hooks && !dir.isEmpty())
                      hooks->openRun({dir});
                  })
      ->setToolTip(tr("A plan and its measured rank traces: simulated and measured Gantt on one "
                      "axis, per-unit errors, calibration"));
  file->addAction(tr("Load Fitted Cost &Profile…"), this,
                  [this] { costFileDialog(ConfigPanel::CostFile::Profile); });
  recent_ = file->addMenu(tr("Open &Recent"));
  rebuildRecent();
  file->addSeparator();
  QAction* save =
      file->addAction(icon("save"), tr("&Save Session"), this, &WindowMenus::saveSession);
  save->setShortcut(QKeySequence::Save);
  QAction* save_as = file->addAction(tr("Save Session &As…"), this, &WindowMenus::saveSessionAs);
  // Platforms without a standard Save As key (the offscreen one, some desktops) get the usual one.
  save_as->setShortcut(QKeySequence::SaveAs);
  if (save_as->shortcut().isEmpty()) save_as->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
  file->addSeparator();
  QMenu* exp = file->addMenu(icon("export"), tr("&Export"));
  QAction* image = exp->addAction(icon("export"), tr("&Image (PNG, SVG, PDF)…"), this,
                                  &WindowMenus::exportImageDialog);
  image->setShortcut(QKeySequence(tr("Ctrl+E")));
  guardExport(image, Exporter::Kind::Image);
  guardExport(exp->addAction(tr("&Chrome Trace…"), this, &WindowMenus::exportTraceDialog),
              Exporter::Kind::ChromeTrace);
  guardExport(exp->addAction(tr("CSV of &Ops…"), this, &WindowMenus::exportCsvDialog),
              Exporter::Kind::OpsCsv);
  QAction* copy = exp->addAction(tr("Copy Image to &Clipboard"), &window_.exporter(),
                                 &Exporter::copyImageToClipboard);
  copy->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
  guardExport(copy, Exporter::Kind::Image);
  exp->addSeparator();
  exp->addAction(tr("PNG &Scale…"), this, [this] {
    bool ok = false;
    const double s = QInputDialog::getDouble(&window_, tr("PNG scale"),
                                             tr("Device pixel ratio of PNG exports (2 for slides)"),
                                             window_.settings().exportScale(), 0.25, 8, 2, &ok);
    if (ok) window_.settings().setExportScale(s);
  });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), &window_, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);
  bar->addAction(open);
  bar->addAction(save);
  bar->addAction(image);
}

void WindowMenus::buildEditMenu() {
  QMenu* edit = window_.menuBar()->addMenu(tr("&Edit"));
  QUndoStack* stack = window_.undoStack();
  QAction* undo = stack->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = stack->createRedoAction(this, tr("&Redo"));
  // Both common spellings, whatever the platform's standard one is.
  redo->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  guardExport(
      edit->addAction(tr("Copy &Image"), &window_.exporter(), &Exporter::copyImageToClipboard),
      Exporter::Kind::Image);
  edit->addSeparator();
  edit->addAction(tr("Reset to &Defaults"), &window_.controller(),
                  &ExplorerController::resetToDefaults)
      ->setToolTip(tr("The embedded workload and the default configuration (undo brings yours "
                      "back)"));
}

void WindowMenus::buildViewMenu() {
  QMenu* view = window_.menuBar()->addMenu(tr("&View"));
  QToolBar* bar = window_.findChild<QToolBar*>("toolbar.main");
  GanttView* gantt = window_.ganttView();
  QAction* fit =
      view->addAction(icon("zoom-fit"), tr("&Fit to Window"), gantt, &GanttView::fitToWindow);
  fit->setShortcut(QKeySequence(tr("Ctrl+0")));
  QAction* memory = view->addAction(tr("&Memory Strip"));
  memory->setCheckable(true);
  memory->setShortcut(QKeySequence(tr("Ctrl+M")));
  connect(memory, &QAction::toggled, gantt, &GanttView::setMemoryStripVisible);
  // On by default: memory over time is half of what a schedule trades off, and the lanes have room.
  memory->setChecked(true);
  QAction* tint = view->addAction(tr("&Tint Bubbles"));
  tint->setCheckable(true);
  tint->setChecked(gantt->paintOptions().bubble_tint);
  connect(tint, &QAction::toggled, gantt, &GanttView::setBubbleTint);
  view->addAction(tr("Save Current &View"), &window_.savedViews(), &SavedViews::saveCurrent)
      ->setShortcut(QKeySequence(tr("Ctrl+B")));
  saved_ = view->addMenu(tr("Sa&ved Views"));
  connect(saved_, &QMenu::aboutToShow, this, &WindowMenus::rebuildSavedViews);
  view->addSeparator();
  auto* themes = new QActionGroup(this);
  for (const auto& [name, label] :
       {std::pair{"light", tr("&Light Theme")}, {"dark", tr("&Dark Theme")}}) {
    QAction* a = view->addAction(label);
    a->setCheckable(true);
    a->setChecked(window_.settings().theme() == name);
    themes->addAction(a);
    const QString theme = QString::fromLatin1(name);
    connect(a, &QAction::triggered, this, [this, theme] { window_.settings().setTheme(theme); });
  }
  QAction* present = view->addAction(icon("present"), tr("&Presentation Mode"),
                                     &window_.presentation(), &PresentationMode::toggle);
  present->setShortcut(QKeySequence::FullScreen);
  if (present->shortcut().isEmpty()) present->setShortcut(QKeySequence(Qt::Key_F11));
  view->addSeparator();
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (QDockWidget* dock : window_.findChildren<QDockWidget*>())
    panels->addAction(dock->toggleViewAction());
  view->addAction(tr("&Reset Layout"), &window_, &MainWindow::resetLayout);
  bar->addAction(fit);
  bar->addAction(present);
}

void WindowMenus::buildRunMenu() {
  QMenu* run = window_.menuBar()->addMenu(tr("&Run"));
  QToolBar* bar = window_.findChild<QToolBar*>("toolbar.main");
  ExplorerController& c = window_.controller();
  QAction* sweep = run->addAction(tr("&Sweep Slice Sizes"), &c, &ExplorerController::requestSweep);
  sweep->setShortcut(QKeySequence(tr("Ctrl+Shift+W")));
  QAction* compare = run->addAction(icon("compare"), tr("&Compare Strategies"), this, [this] {
    window_.showView("compare");
    window_.controller().requestCompare(window_.compareView()->selectedStrategies());
  });
  compare->setShortcut(QKeySequence(tr("Ctrl+Shift+K")));
  run->addAction(tr("Solve the &Workload (close plan)"), &c, &ExplorerController::clearPlan);
  run->addSeparator();
  // Enabled only while a job runs. Escape reaches it from anywhere in the window (MainWindow's
  // event filter); with nothing running, Escape goes to the Gantt (unpin).
  cancel_ = run->addAction(icon("cancel"), tr("C&ancel"), &window_, &MainWindow::cancelJobs);
  cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel_->setShortcutContext(Qt::WindowShortcut);
  cancel_->setEnabled(false);
  bar->addAction(compare);
}

void WindowMenus::rebuildSavedViews() {
  saved_->clear();
  const auto& views = window_.savedViews().views();
  for (std::size_t i = 0; i < views.size(); ++i) {
    const SavedView& v = views[i];
    const QString label =
        QStringLiteral("&%1  %2 — %3, %4 to %5")
            .arg(i + 1)
            .arg(QString::fromStdString(v.name), v.tab == "compare" ? tr("Compare") : tr("Gantt"))
            .arg(v.t0, 0, 'g', 4)
            .arg(v.t1, 0, 'g', 4);
    saved_->addAction(label, this, [this, v] { window_.savedViews().apply(v); });
  }
  if (views.empty())
    saved_->addAction(tr("(none yet: View > Save Current View)"))->setEnabled(false);
  saved_->addSeparator();
  QMenu* rename = saved_->addMenu(tr("&Rename"));
  rename->setEnabled(!views.empty());
  for (std::size_t i = 0; i < views.size(); ++i)
    rename->addAction(QString::fromStdString(views[i].name), this, [this, i] {
      bool ok = false;
      const QString name =
          QInputDialog::getText(&window_, tr("Rename Saved View"), tr("Name:"), QLineEdit::Normal,
                                QString::fromStdString(window_.savedViews().views()[i].name), &ok);
      if (ok) window_.savedViews().rename(i, name);
    });
  saved_->addAction(tr("&Clear Saved Views"), &window_.savedViews(), &SavedViews::clear)
      ->setEnabled(!views.empty());
}

void WindowMenus::guardExport(QAction* action, Exporter::Kind kind) {
  // The staleness rule for exports: a greyed result is not exported as if it were current.
  const QString tip = action->toolTip();
  const auto update = [this, action, kind, tip] {
    const bool ok = window_.exporter().canExport(kind);
    action->setEnabled(ok);
    action->setToolTip(ok ? tip
                          : tr("Disabled: no result of the current settings yet (the one shown "
                               "is greyed)"));
  };
  connect(&window_.exporter(), &Exporter::exportableChanged, action, update);
  update();
}

void WindowMenus::setBusy(bool busy) {
  if (cancel_) cancel_->setEnabled(busy);
}

void WindowMenus::rebuildRecent() {
  recent_->clear();
  const QStringList files = window_.settings().recentFiles();
  for (const QString& f : files) {
    // A run's entry opens all its files in one turn: they load together as the run's ranks.
    const QStringList run = Settings::recentEntryFiles(f);
    if (run.isEmpty()) continue;
    const QString name =
        run.size() == 1
            ? QFileInfo(run.front()).fileName()
            : tr("%1 + %2 more (run)").arg(QFileInfo(run.front()).fileName()).arg(run.size() - 1);
    recent_
        ->addAction(name, this,
                    [this, run] {
                      for (const QString& p : run) window_.session().openFile(p);
                    })
        ->setToolTip(run.join(QLatin1Char('\n')));
  }
  recent_->setEnabled(!files.isEmpty());
  if (!files.isEmpty()) {
    recent_->addSeparator();
    recent_->addAction(tr("&Clear"), &window_.settings(), &Settings::clearRecentFiles);
  }
}

void WindowMenus::openFileDialog() {
  // Several files: the ranks of one run's traces (or files opened one after the other).
  const QStringList paths = QFileDialog::getOpenFileNames(
      &window_, tr("Open"), window_.settings().lastDirectory(), kInputFilter);
  for (const QString& path : paths) window_.session().openFile(path);
}

void WindowMenus::costFileDialog(ConfigPanel::CostFile which) {
  const bool profile = which == ConfigPanel::CostFile::Profile;
  const QString path = QFileDialog::getOpenFileName(
      &window_, profile ? tr("Load Fitted Cost Profile") : tr("Load Cost Overrides"),
      window_.settings().lastDirectory(), tr("JSON (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  const ConfigSpec& c = window_.controller().config();
  window_.controller().setCostFiles(profile ? path : QString::fromStdString(c.cost_profile_file),
                                    profile ? QString::fromStdString(c.cost_overrides_file) : path);
}

void WindowMenus::modelFileDialog() {
  const QString path = QFileDialog::getOpenFileName(
      &window_, tr("Model From a config.json"), window_.settings().lastDirectory(),
      tr("Hugging Face config (*.json);;All files (*)"));
  if (!path.isEmpty()) window_.controller().setModelFile(path);
}

void WindowMenus::openSessionDialog() {
  const QString path =
      QFileDialog::getOpenFileName(&window_, tr("Open Session"), window_.settings().lastDirectory(),
                                   tr("Sessions (*.slimpack)"));
  if (!path.isEmpty()) window_.session().openFile(path);
}

void WindowMenus::saveSession() {
  if (window_.session().sessionPath().isEmpty())
    saveSessionAs();
  else
    window_.session().saveSession(window_.session().sessionPath());
}

void WindowMenus::saveSessionAs() {
  const QString path =
      askSavePath(tr("Save Session"), "session.slimpack", tr("Sessions (*.slimpack)"));
  if (!path.isEmpty()) window_.session().saveSession(path);
}

QString WindowMenus::askSavePath(const QString& title, const QString& suggested,
                                 const QString& filter) {
  const QString dir = window_.settings().saveDirectory();
  QString path = QFileDialog::getSaveFileName(&window_, title, dir + "/" + suggested, filter);
  if (path.isEmpty()) return path;
  // A name typed without a suffix gets the one of the suggested file (".slimpack", ".png").
  if (QFileInfo(path).suffix().isEmpty()) path += '.' + QFileInfo(suggested).suffix();
  window_.settings().setSaveDirectory(QFileInfo(path).absolutePath());
  return path;
}

void WindowMenus::exportImageDialog() {
  const QString path =
      askSavePath(tr("Export Image"), "gantt.png",
                  tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  GanttExportOptions options;
  options.scale = window_.settings().exportScale();
  options.theme = ganttTheme(window_.settings().theme());
  options.memory_strip = window_.ganttView()->paintOptions().memory_strip;
  options.highlight = window_.ganttView()->highlightedSequence();
  // The Gantt exports what is on screen; a comparison exports the whole iterations.
  if (!window_.exporter().comparisonActive()) options.range = window_.ganttView()->viewRange();
  window_.exporter().setImageOptions(options);
  window_.exporter().exportTo(Exporter::Kind::Image, path);
}

void WindowMenus::exportTraceDialog() {
  const QString path =
      askSavePath(tr("Export Chrome Trace"), "trace.json", tr("Chrome trace (*.json)"));
  if (!path.isEmpty()) window_.exporter().exportTo(Exporter::Kind::ChromeTrace, path);
}

void WindowMenus::exportCsvDialog() {
  const QString path = askSavePath(tr("Export Ops"), "ops.csv", tr("CSV (*.csv)"));
  if (!path.isEmpty()) window_.exporter().exportTo(Exporter::Kind::OpsCsv, path);
}

}  // namespace slimpack::ui
