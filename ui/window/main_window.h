#pragma once
// The explorer's main window: a thin shell that composes the panels in docks and tabs around the
// Gantt, wires them to the ExplorerController and hosts the parts with one job each: the menus
// (WindowMenus), session I/O (SessionIO), the saved views (SavedViews), the status line
// (StatusLine), exports (Exporter) and presentation mode. It owns no computation and no model data.
#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QUndoStack;
class QTabWidget;
QT_END_NAMESPACE

namespace slimpack {
class GanttPane;
class GanttView;
}  // namespace slimpack

namespace slimpack::ui {

class CompareView;
class SearchPanel;
class ConfigPanel;
class EditHistory;
class StateFrame;
class ViewStates;
class ExplorerController;
class JobBoard;
class Exporter;
class MemoryChart;
class MetricsPanel;
class PresentationMode;
class SavedViews;
class SessionIO;
class Settings;
class StatusLine;
class SweepPanel;
class TraceWorkspace;
class WindowMenus;
class WorkloadPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(Settings& settings, QWidget* parent = nullptr);
  ~MainWindow() override;

  ExplorerController& controller() const { return *controller_; }
  Settings& settings() const { return settings_; }
  GanttView* ganttView() const { return gantt_; }
  GanttPane* ganttPane() const { return gantt_pane_; }
  // The frames that grey a result view under a banner when it does not show the current settings.
  StateFrame* ganttFrame() const { return gantt_frame_; }
  StateFrame* metricsFrame() const { return metrics_frame_; }
  StateFrame* memoryFrame() const { return memory_frame_; }
  QUndoStack* undoStack() const;
  EditHistory& history() const { return *history_; }
  CompareView* compareView() const { return compare_; }
  SearchPanel* searchPanel() const { return search_; }
  SweepPanel* sweepPanel() const { return sweep_; }
  ConfigPanel* configPanel() const { return config_; }
  WorkloadPanel* workloadPanel() const { return workload_; }
  MetricsPanel* metricsPanel() const { return metrics_; }
  Exporter& exporter() const { return *exporter_; }
  PresentationMode& presentation() const { return *presentation_; }
  TraceWorkspace* traceWorkspace() const { return traces_; }
  // Every job of the window (Escape, Run > Cancel and the status bar cover them all).
  JobBoard& jobBoard() const { return *job_board_; }
  // Opening files, saving and applying sessions (File menu, drops, the command line).
  SessionIO& session() const { return *session_; }
  // The saved views (View > Saved Views, presentation mode).
  SavedViews& savedViews() const { return *saved_views_; }
  StatusLine& statusLine() const { return *status_; }
  // The central tabs: Gantt, Compare, Search, Dataset, Traces.
  QTabWidget* tabs() const { return tabs_; }

  // The tab in front: "gantt", "compare", "search" or "traces" (what a session remembers).
  QString currentTabName() const;

  // Tests turn the QMessageBox off and watch errorShown instead.
  void setErrorDialogsEnabled(bool on) { error_dialogs_ = on; }
  bool errorDialogsEnabled() const { return error_dialogs_; }
  void showError(const QString& title, const QString& message);

  // "gantt", "compare" or "sweep": brings that view to the front (screenshots, menus).
  void showView(const QString& name);
  void applyTheme(const QString& theme);
  // View > Reset Layout: docks, toolbar and their sizes as a fresh start sized to this window.
  void resetLayout();
  void cancelJobs();  // Escape, from anywhere in the window

 signals:
  void errorShown(const QString& title, const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  QDockWidget* addDock(const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea a);
  void connectController();
  // Parts of the constructor: the central tabs, the docks, the first size.
  void buildTabs();
  void buildDocks();
  void sizeFirstWindow();
  void onSnapshot();
  void updateTitle();
  void arrangeDocks();

  Settings& settings_;
  ExplorerController* controller_;
  TraceWorkspace* traces_ = nullptr;
  GanttView* gantt_;
  GanttPane* gantt_pane_;
  StateFrame* gantt_frame_;
  StateFrame* metrics_frame_;
  StateFrame* memory_frame_;
  QTabWidget* tabs_;
  WorkloadPanel* workload_;
  ConfigPanel* config_;
  MetricsPanel* metrics_;
  MemoryChart* memory_;
  SweepPanel* sweep_;
  CompareView* compare_;
  SearchPanel* search_;
  QDockWidget* sweep_dock_ = nullptr;
  Exporter* exporter_;
  SavedViews* saved_views_;
  PresentationMode* presentation_;
  SessionIO* session_ = nullptr;
  StatusLine* status_ = nullptr;
  WindowMenus* menus_ = nullptr;
  EditHistory* history_ = nullptr;
  ViewStates* states_ = nullptr;
  JobBoard* job_board_;
  bool swallow_escape_ = false;  // Escape cancelled a job: its key press goes nowhere else
  bool error_dialogs_ = true;
};

}  // namespace slimpack::ui
