#pragma once
// The explorer's "Traces" tab: one run's profiler traces (one file per rank) on a TraceView, and
// optionally a second run ("Compare with…") on a second view under it, on one synced time axis,
// with the diff table by event name. Each timeline is titled ("A: file", "B: file"); under them
// the details area (trace_details_panel.h) describes the selected event, lists the search's
// matches and sums up a selected range or the whole run by name; measured vs simulated, the GPU
// summary and the bubbles show with their buttons.
// The tab composes classes with one job each and lays them out:
//  - TraceLoader (trace_loader.h): files offered in one turn, the load jobs, progress and
//    Cancel, the runs as loaded;
//  - TimelineStack (timeline_stack.h): the stacked timelines' one time range, lane-label width
//    and track-list actions;
//  - TraceDiffPanel (trace_diff_panel.h): the diff table, its controls and its job;
//  - TraceRunAlignment (trace_run_alignment.h): runs, ranks and the plan's units aligned;
//  - TraceSearch (trace_search.h): matches by name and stepping through them.
// Here: the layout (trace_workspace_layout.cpp), options and session
// (trace_workspace_session.cpp), and what a loaded run changes, the status line and the wiring
// between the parts (trace_workspace.cpp).
//
// The main window hands every opened path to offerFile() first: a trace is taken (paths offered
// in one turn of the event loop - several files dropped or named on the command line - load
// together as the ranks of one run), anything else goes on to the ordinary loaders.
#include <QStringList>
#include <QWidget>
#include <memory>

#include "app/explorer_snapshot.h"
#include "app/session_file.h"
#include "trace/trace_loader.h"
#include "trace/trace_run.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QHBoxLayout;
class QSplitter;
QT_END_NAMESPACE

namespace slimpack::ui {

class BubblePanel;
class ElidedLabel;
class JobTracker;
class SimCheckPanel;
class TimelineStack;
class TraceDetailsPanel;
class TraceDiffPanel;
class TraceRunAlignment;
class TraceScrollArea;
class TraceSearch;
class TraceSummaryPanel;
class TraceView;

class TraceWorkspace : public QWidget {
  Q_OBJECT

 public:
  using Slot = TraceLoader::Slot;

  explicit TraceWorkspace(QWidget* parent = nullptr);
  ~TraceWorkspace() override;

  // The parts (see above).
  TraceLoader& loader() const { return *loader_; }
  TimelineStack& stack() const { return *stack_; }
  TraceDiffPanel& diff() const { return *diff_; }
  TraceRunAlignment& alignment() const { return *alignment_; }
  TraceSearch& search() const { return *search_; }

  // True when `path` looks like a trace (core/trace/trace_sniff.h): it is queued and loaded as
  // run A with the other traces offered in the same turn of the event loop.
  bool offerFile(const QString& path);
  // Loads `paths` as the ranks of one run into `slot` (A replaces both runs).
  void openTraces(const QStringList& paths, Slot slot = Slot::A);
  void cancelLoad();
  JobTracker& loadJobs() const;
  // Files offered and not loaded yet, or a load, diff or measured-vs-simulated job running.
  bool busy() const;

  TraceView* viewA() const { return view_a_; }
  TraceView* viewB() const { return view_b_; }
  // Measured vs simulated: the explorer's current plan and simulation under run A
  // (ui/trace/sim_check_panel.h), shown with the "Measured vs Simulated" button.
  SimCheckPanel* simCheck() const { return sim_check_; }
  // Run A's GPU time per rank and step (ui/trace/trace_summary_panel.h), shown with "GPU Summary".
  TraceSummaryPanel* summaryPanel() const { return summary_; }
  // Where run A's bubbles come from (ui/trace/bubble_panel.h), shown with "Bubbles" (which also
  // shows Measured vs Simulated: the analysis holds the run against the current plan).
  BubblePanel* bubblePanel() const { return bubbles_; }
  TraceDetailsPanel* details() const { return details_; }
  void setBubblesVisible(bool on);
  void setSimulation(SnapshotPtr snapshot);
  void setSimCheckVisible(bool on);
  bool simCheckVisible() const;
  // The measured-vs-simulated check ran and found the trace can be a run of the current plan.
  bool runMatchesPlan() const;
  // The files of run A as opened (for Open Recent and the session).
  const QStringList& pathsA() const { return loader_->paths(Slot::A); }
  // The request measured vs simulated and calibration run with (core/app/trace_run.h): run A's
  // files as opened, the trace options, the rules and GPU-time choice of the panel. What
  // `slimpack simulate --check-trace` / `fit-costs --trace` build from their options.
  TraceRunRequest traceRequest() const;
  // The trace options used when files are opened (alignment, lanes, rules, GPU time).
  void setTraceOptions(const TraceSpec& options);
  TraceSpec traceOptions() const;
  // The tab's part of a session (core/app/session_file.h), and opening it again: run A, then B.
  TraceSessionPart sessionPart() const;
  void restoreSessionPart(const TraceSpec& options, const TraceSessionPart& part);
  bool comparing() const { return loader_->comparing(); }
  // Timings of the last load (figures for docs/performance.md).
  const TraceRunView& runA() const { return loader_->run(Slot::A); }
  // GUI-thread time of the last load's hand-over (the job's result to the views), in ms.
  double lastShowMs() const { return last_show_ms_; }
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
  QWidget* buildActionBar();
  QHBoxLayout* buildSearchBar();
  QWidget* buildPanes();
  void stackTimelines();
  void connectJobs();
  void connectLoader();
  void connectViews();
  void connectDetails();
  void updateTitles();
  bool eventFilter(QObject* watched, QEvent* event) override;

  void showRun(Slot slot);
  void updateCompare();
  void updateStatus();
  void showStatusMessage(const QString& message);

  TraceLoader* loader_;
  TraceView* view_a_;
  TraceView* view_b_;
  TimelineStack* stack_;
  SimCheckPanel* sim_check_;
  TraceSummaryPanel* summary_;
  BubblePanel* bubbles_;
  TraceDetailsPanel* details_;
  TraceDiffPanel* diff_;
  TraceSearch* search_;
  TraceRunAlignment* alignment_;
  QSplitter* splitter_;
  QPushButton* compare_;
  QPushButton* rules_;
  QPushButton* calibrate_;
  QLabel* status_;
  QLabel* selection_;
  QPushButton* bubbles_button_ = nullptr;
  QPushButton* sim_button_;
  ElidedLabel* label_a_;  // "A: file": the runs' titles over their timelines
  ElidedLabel* label_b_;
  QLineEdit* track_filter_;  // lanes by rank, process, thread or stream
  QWidget* pane_b_ = nullptr;
  TraceScrollArea* scroll_a_ = nullptr;
  TraceScrollArea* scroll_b_ = nullptr;
  QString status_message_;
  QString note_;
  double last_show_ms_ = 0.0;
};

}  // namespace slimpack::ui
