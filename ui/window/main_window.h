#pragma once
// The explorer's main window: a thin shell that composes the panels in docks around the Gantt,
// wires them to the ExplorerController and hosts the menus (WindowMenus), exports (Exporter),
// presentation mode and the status bar. It owns no computation and no model data.
#include <QMainWindow>
#include <memory>
#include <optional>
#include <vector>

#include "app/compare.h"
#include "app/session_file.h"

QT_BEGIN_NAMESPACE
class QDockWidget;
class QLabel;
class QUndoStack;
class QProgressBar;
class QTabWidget;
class QToolButton;
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
class Settings;
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
  QLabel* statusResult() const { return status_result_; }
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

  // A session (.slimpack), length file or plan. Errors go to showError; the session is kept.
  // A length file opens with `column`, else the column remembered for it (a multi-column file
  // without either asks).
  void openFile(const QString& path, const QString& column = {});
  // Adds ".slimpack" when the name has no suffix; returns false (after showError) on failure.
  bool saveSession(const QString& path);
  SessionFile currentSession() const;
  // The tab in front: "gantt", "compare", "search" or "traces" (what a session remembers).
  QString currentTabName() const;
  void applySession(const SessionFile& session);
  QString sessionPath() const { return session_path_; }

  // Tests turn the QMessageBox off and watch errorShown instead.
  void setErrorDialogsEnabled(bool on) { error_dialogs_ = on; }
  bool errorDialogsEnabled() const { return error_dialogs_; }
  void showError(const QString& title, const QString& message);

  // "gantt", "compare" or "sweep": brings that view to the front (screenshots, menus).
  void showView(const QString& name);
  // Saved views: the current tab, its visible time range and highlighted sequence, stepped
  // through with the arrow keys in presentation mode and listed in View > Saved Views.
  void saveCurrentView();
  void applySavedView(const SavedView& view);
  void clearSavedViews();
  void renameSavedView(std::size_t index, const QString& name);
  const std::vector<SavedView>& savedViews() const { return saved_views_; }
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
  // Parts of the constructor: the central tabs, the docks, the status bar, the first size.
  void buildTabs();
  void buildDocks();
  void buildStatusBar();
  void sizeFirstWindow();
  void onSnapshot();
  void onBusy();
  void updateTitle();
  void updateStatusText();
  void arrangeDocks();
  void setSavedViews(std::vector<SavedView> views);

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
  PresentationMode* presentation_;
  WindowMenus* menus_ = nullptr;
  EditHistory* history_ = nullptr;
  ViewStates* states_ = nullptr;
  JobBoard* job_board_;
  bool swallow_escape_ = false;  // Escape cancelled a job: its key press goes nowhere else
  QLabel* status_stage_;
  QProgressBar* status_progress_;
  QToolButton* status_cancel_;
  QLabel* status_result_;
  QString session_path_;
  std::optional<ViewState> pending_view_;  // applied when the session's first result arrives
  std::vector<SavedView> saved_views_;
  bool error_dialogs_ = true;
};

}  // namespace slimpack::ui
