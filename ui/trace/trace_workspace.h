#pragma once
// The explorer's "Traces" tab: one run's profiler traces (one file per rank) on a TraceView, and
// optionally a second run ("Compare with…") on a second view under it, on one synced time axis,
// with the diff table by event name. Files are loaded by a job (progress and cancel in the tab's
// bar); a file that fails to load is reported through loadFailed and changes nothing shown.
// Each timeline is titled ("A: file", "B: file"); under them the details area
// (trace_details_panel.h) describes the selected event, lists the search's matches (Enter /
// Shift+Enter step through them) and sums up a selected range or the whole run by name. The bar's
// track filter and Collapse / Expand All act on both runs.
// The code: layout (trace_workspace_layout.cpp), comparison and alignment
// (trace_workspace_compare.cpp), search and navigation (trace_workspace_search.cpp), options and
// session (trace_workspace_session.cpp), loading and the rest here.
//
// The main window hands every opened path to offerFile() first: a trace is taken (paths offered
// in one turn of the event loop - several files dropped or named on the command line - load
// together as the ranks of one run), anything else goes on to the ordinary loaders.
#include <QStringList>
#include <QWidget>
#include <memory>

#include "app/explorer_snapshot.h"
#include "app/session_file.h"
#include "trace/trace_compare.h"
#include "trace/trace_run.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QHBoxLayout;
class QSplitter;
class QTableView;
class QToolButton;
QT_END_NAMESPACE

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class BubblePanel;
class ElidedLabel;
class JobTracker;
class SimCheckPanel;
class TraceDetailsPanel;
class TraceDiffModel;
class TraceLabelWidth;
class TraceScrollArea;
class TraceSummaryPanel;
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
  // Files offered and not loaded yet, or a load, diff or measured-vs-simulated job running.
  bool busy() const;
  // The diff table's computation (merging ranks, comparing by name): a job, so that filtering
  // or folding a large trace's table never blocks the GUI thread.
  JobTracker& diffJobs() const { return *diff_jobs_; }
  // Recomputes the diff table with this category ("" = all) and fold option on a worker.
  void requestDiff(const QString& category, bool fold_digits);

  TraceView* viewA() const { return view_a_; }
  // Measured vs simulated: the explorer's current plan and simulation under run A
  // (ui/trace/sim_check_panel.h), shown with the "Measured vs Simulated" button.
  SimCheckPanel* simCheck() const { return sim_check_; }
  // Run A's GPU time per rank and step (ui/trace/trace_summary_panel.h), shown with "GPU Summary".
  TraceSummaryPanel* summaryPanel() const { return summary_; }
  // Where run A's bubbles come from (ui/trace/bubble_panel.h), shown with "Bubbles" (which also
  // shows Measured vs Simulated: the analysis holds the run against the current plan).
  BubblePanel* bubblePanel() const { return bubbles_; }
  void setBubblesVisible(bool on);
  void setSimulation(SnapshotPtr snapshot);
  void setSimCheckVisible(bool on);
  bool simCheckVisible() const;
  // The measured-vs-simulated check ran and found the trace can be a run of the current plan.
  bool runMatchesPlan() const;
  // The files of run A as opened (for Open Recent and the session).
  const QStringList& pathsA() const { return paths_a_; }
  // The request measured vs simulated and calibration run with (core/app/trace_run.h): run A's
  // files as opened, the trace options, the rules and GPU-time choice of the panel. What
  // `slimpack simulate --check-trace` / `fit-costs --trace` build from their options.
  TraceRunRequest traceRequest() const;
  // The trace options used when files are opened (alignment, lanes, rules, GPU time).
  void setTraceOptions(const TraceSpec& options);
  // The ranks' clocks aligned at each file's first event of this name (empty: as recorded, the
  // CLI's --trace-align): run A is loaded again with it.
  void alignRanksAt(const QString& event);
  TraceSpec traceOptions() const;
  // The tab's part of a session (core/app/session_file.h), and opening it again: run A, then B.
  TraceSessionPart sessionPart() const;
  void restoreSessionPart(const TraceSpec& options, const TraceSessionPart& part);
  TraceView* viewB() const { return view_b_; }
  // The lane-label column's width, shared by the stacked timelines (drag its edge).
  TraceLabelWidth* labelWidth() const { return label_width_; }
  TraceDiffModel* diffModel() const { return diff_; }
  QTableView* diffTable() const { return table_; }
  bool comparing() const { return static_cast<bool>(run_b_.timeline); }
  // Timings of the last load (figures for docs/performance.md).
  const TraceRunView& runA() const { return run_a_; }
  // GUI-thread time of the last load's hand-over (the job's result to the views), in ms.
  double lastShowMs() const { return last_show_ms_; }

  // Aligns B to A at their first events, or at the first event named `name` in each run
  // ("ProfilerStep#3"); false (alignment unchanged) when a run has no such event.
  bool setAlignment(Align align, const QString& name = {});
  // The same for any event name (the alignment box's "Align at event…" and the diff table's
  // "Align Both Runs at This Event"); says so in the status when a run lacks the event.
  bool alignAtEvent(const QString& name);
  // Search by name (case-insensitive substring) in both runs; returns the matches in A. The
  // matches of A are listed in the details area (time order) and the first one at or after the
  // visible range's start becomes the current match.
  int search(const QString& text);
  // The next / previous match of A (wrapping): selected, shown in the details area and scrolled
  // into view. Enter and Shift+Enter in the search field, the arrows beside it.
  void nextMatch();
  void previousMatch();
  // Marks the events named exactly `name` in both runs (a statistics row) as the matches.
  void markName(const QString& name);
  // The current match (0-based; -1: none) and the number of matches in A.
  int currentMatch() const { return current_match_; }
  int matchCount() const;
  QString matchCountText() const;
  TraceDetailsPanel* details() const { return details_; }
  QLineEdit* searchField() const { return search_; }
  // Marks the events of diff-table row `row` (after sorting) in both timelines.
  void highlightDiffRow(int row);
  QString statusText() const;

  // Shows the "Mapping Rules…" and "Calibrate from Trace" buttons of the tab's bar; they emit the
  // signals below with run A's timeline. ui/window/trace_hooks wires calibration.
  void setMappingActionsVisible(bool rules, bool calibrate);
  // A lasting line in the tab's status (a calibration's result); empty clears it.
  void setNote(const QString& note);

 signals:
  void mappingRulesRequested(std::shared_ptr<const TraceTimeline> run);
  void calibrateRequested(std::shared_ptr<const TraceTimeline> run);
  void loadFailed(const QString& path, const QString& message);
  void loaded(int slot);                        // 0 = A, 1 = B
  void opened(const QStringList& paths);        // run A's files, once they loaded
  void comparedWith(const QStringList& paths);  // run B's files, once they loaded
  void idle();                                  // busy() turned false

 private:
  void setUpControls();
  QHBoxLayout* buildActionBar();
  QHBoxLayout* buildSearchBar();
  QWidget* buildPanes();
  void connectJobs();
  void connectViews();
  void connectSearch();
  void connectCompare();
  void goToMatch(int index);
  void revealIn(TraceView* view, TraceEventRef ref);
  void updateTitles();
  static void showOnOneAxis(GanttView* a, GanttView* b);
  bool eventFilter(QObject* watched, QEvent* event) override;

  void flushOffered();
  void showRun(Slot slot, TraceRunView run);
  void updateCompare();
  void fillAlignMenu();
  void updateStatus();

  void alignToUnits(double origin_us);
  void syncLabelWidths();

  void startDiff(TraceCompareOptions options, bool refill_categories);

  QStringList offered_;
  QStringList paths_a_;
  QStringList paths_b_;
  QStringList pending_compare_;  // a restored session's run B, opened once run A loaded
  JobTracker* jobs_;
  TraceRunView run_a_;
  TraceRunView run_b_;
  TraceSpec options_;  // how files are opened (the panel holds the rules and GPU time)
  TraceView* view_a_;
  TraceView* view_b_;
  TraceDiffModel* diff_;
  QTableView* table_;
  QSplitter* splitter_;
  QLineEdit* search_;
  QLineEdit* rank_align_;  // --trace-align for run A
  QComboBox* align_;
  QComboBox* category_;
  QCheckBox* fold_;
  QCheckBox* per_step_;  // the diff table per profiler step (HTA's view) or over the whole runs
  QPushButton* compare_;
  QPushButton* cancel_;
  QPushButton* rules_;
  QPushButton* calibrate_;
  QProgressBar* progress_;
  QLabel* status_;
  QLabel* selection_;
  JobTracker* diff_jobs_;
  SimCheckPanel* sim_check_;
  TraceSummaryPanel* summary_;
  BubblePanel* bubbles_;
  QPushButton* bubbles_button_ = nullptr;
  QPushButton* sim_button_;
  TraceDetailsPanel* details_;
  QToolButton* prev_;
  QToolButton* next_;
  QLabel* match_label_;
  ElidedLabel* label_a_;  // "A: file": the runs' titles over their timelines
  ElidedLabel* label_b_;
  QLineEdit* track_filter_;  // lanes by rank, process, thread or stream
  QWidget* pane_b_ = nullptr;
  TraceScrollArea* scroll_a_ = nullptr;
  TraceScrollArea* scroll_b_ = nullptr;
  TraceLabelWidth* label_width_ = nullptr;  // the lane-label column dragged wider or narrower
  int current_match_ = -1;
  int matches_a_ = 0;
  int matches_b_ = 0;
  QString status_message_;
  QString note_;
  double last_show_ms_ = 0.0;
};

}  // namespace slimpack::ui
