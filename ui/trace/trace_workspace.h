#pragma once
// The explorer's "Traces" tab: one run's profiler traces (one file per rank) on a TraceView, and
// optionally a second run ("Compare with…") on a second view under it, on one synced time axis,
// with the diff table by event name. Files are loaded by a job (progress and cancel in the tab's
// bar); a file that fails to load is reported through loadFailed and changes nothing shown.
//
// The main window hands every opened path to offerFile() first: a trace is taken (paths offered
// in one turn of the event loop - several files dropped or named on the command line - load
// together as the ranks of one run), anything else goes on to the ordinary loaders.
#include <QStringList>
#include <QWidget>
#include <memory>

#include "trace/trace_run.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class JobTracker;
class TraceDiffModel;
class TraceView;

class TraceWorkspace : public QWidget {
  Q_OBJECT

 public:
  enum class Slot { A, B };
  // How the two runs share the time axis.
  enum class Align { FirstEvent, NamedEvent };

  explicit TraceWorkspace(QWidget* parent = nullptr);
  ~TraceWorkspace() override;

  // True when `path` looks like a trace (core/trace/trace_sniff.h): it is queued and loaded as
  // run A with the other traces offered in the same turn of the event loop.
  bool offerFile(const QString& path);
  // Loads `paths` as the ranks of one run into `slot` (A replaces both runs).
  void openTraces(const QStringList& paths, Slot slot = Slot::A);
  void cancelLoad();
  JobTracker& loadJobs() const { return *jobs_; }

  TraceView* viewA() const { return view_a_; }
  TraceView* viewB() const { return view_b_; }
  TraceDiffModel* diffModel() const { return diff_; }
  QTableView* diffTable() const { return table_; }
  bool comparing() const { return static_cast<bool>(run_b_.timeline); }
  // Timings of the last load (figures for docs/performance.md).
  const TraceRun& runA() const { return run_a_; }
  // GUI-thread time of the last load's hand-over (the job's result to the views), in ms.
  double lastShowMs() const { return last_show_ms_; }

  // Aligns B to A at their first events, or at the first event named `name` in each run
  // ("ProfilerStep#3"); false (alignment unchanged) when a run has no such event.
  bool setAlignment(Align align, const QString& name = {});
  // Search by name (case-insensitive substring) in both runs; returns the matches in A.
  int search(const QString& text);
  // Marks the events of diff-table row `row` (after sorting) in both timelines.
  void highlightDiffRow(int row);
  QString statusText() const;

  // Hook for the mapping-rules dialog (ui/trace/trace_rules_dialog.*) and "Calibrate from this
  // trace" (branch trace-core): shows the two buttons in the tab's bar; they emit the signals
  // below with run A's timeline (TraceTimeline::sources() holds the ImportedTrace per rank).
  // Wire them in MainWindow where the dialog and the calibration live, then call this with true.
  void setMappingActionsVisible(bool on);

 signals:
  void mappingRulesRequested(std::shared_ptr<const TraceTimeline> run);
  void calibrateRequested(std::shared_ptr<const TraceTimeline> run);
  void loadFailed(const QString& path, const QString& message);
  void loaded(int slot);  // 0 = A, 1 = B

 private:
  void flushOffered();
  void showRun(Slot slot, TraceRun run);
  void updateCompare();
  void fillAlignMenu();
  void updateStatus();

  QStringList offered_;
  JobTracker* jobs_;
  TraceRun run_a_;
  TraceRun run_b_;
  TraceView* view_a_;
  TraceView* view_b_;
  TraceDiffModel* diff_;
  QTableView* table_;
  QSplitter* splitter_;
  QLineEdit* search_;
  QComboBox* align_;
  QComboBox* category_;
  QCheckBox* fold_;
  QPushButton* compare_;
  QPushButton* cancel_;
  QPushButton* rules_;
  QPushButton* calibrate_;
  QProgressBar* progress_;
  QLabel* status_;
  QLabel* selection_;
  int matches_a_ = 0;
  int matches_b_ = 0;
  QString status_message_;
  double last_show_ms_ = 0.0;
};

}  // namespace slimpack::ui
