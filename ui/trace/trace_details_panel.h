#pragma once
// The trace view's details area, as in Perfetto's bottom panel: tabs for
//  - Event: the selected event (name, category, lane, start, duration, self time, args), its
//    direct children and the events joined to it by flows (a CPU launch and its GPU kernel);
//    clicking a child or a linked event jumps to it (jumpTo);
//  - Matches: the events the search found (name, lane, start, duration), clicking one jumps;
//  - Selection: the events of a selected time range by name (count, total, self, mean, max);
//  - Statistics: the same over the whole trace (computed when the tab is first shown).
// Clicking a row of either table marks that name's events (nameChosen) for Enter to step through.
// The figures come from core/trace/trace_stats.h, computed by jobs off the GUI thread.
#include <QTabWidget>
#include <memory>
#include <optional>

#include "render/trace_timeline.h"

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class JobTracker;
class TraceMatchModel;
class TraceStatsModel;

class TraceDetailsPanel : public QTabWidget {
  Q_OBJECT

 public:
  enum Tab { EventTab, MatchesTab, SelectionTab, StatisticsTab };
  explicit TraceDetailsPanel(QWidget* parent = nullptr);

  // A new run: everything shown is cleared, the statistics are computed again when shown.
  void setTimeline(std::shared_ptr<const TraceTimeline> timeline);
  // The same run with another origin (an alignment): the same events at other times.
  void rebase(std::shared_ptr<const TraceTimeline> timeline);
  const std::shared_ptr<const TraceTimeline>& timeline() const { return timeline_; }
  // The event of `timeline` (run A's or B's) to describe; invalid clears the Event tab.
  void describeEvent(std::shared_ptr<const TraceTimeline> timeline, TraceEventRef ref);
  void setMatches(std::vector<TraceEventRef> matches);
  // The selected range of run A (timeline seconds); empty clears the Selection tab.
  // `lanes` (source, lane): only those lanes' events; empty: every lane.
  void setSelectionRange(std::optional<std::pair<double, double>> range,
                         std::vector<std::pair<int, int>> lanes = {});

  TraceMatchModel* matches() const { return matches_; }
  QTableView* matchTable() const { return match_table_; }
  TraceStatsModel* selectionStats() const { return selection_stats_; }
  TraceStatsModel* traceStats() const { return trace_stats_; }
  QTableView* selectionTable() const { return selection_table_; }
  QTableView* statsTable() const { return stats_table_; }
  QListWidget* children() const { return children_; }
  QListWidget* links() const { return links_; }
  QString eventText() const;
  QString argsText() const;
  QString selectionText() const;
  JobTracker& jobs() const { return *jobs_; }
  JobTracker& statsJobs() const { return *stats_jobs_; }
  bool busy() const;

 signals:
  void jumpTo(const slimpack::TraceTimeline* timeline, slimpack::TraceEventRef ref);
  // A row of the Selection or Statistics table was clicked: its events are to be marked.
  void nameChosen(const QString& name);

 private:
  QWidget* buildEventTab();
  QTableView* makeTable(QAbstractItemModel* model);
  void computeStats();

  std::shared_ptr<const TraceTimeline> timeline_;  // run A
  std::shared_ptr<const TraceTimeline> shown_;     // the run of the event shown
  TraceEventRef event_;
  QLabel* info_;
  QPlainTextEdit* args_;
  QListWidget* children_;
  QListWidget* links_;
  TraceMatchModel* matches_;
  QTableView* match_table_;
  QLabel* selection_label_;
  TraceStatsModel* selection_stats_;
  QTableView* selection_table_;
  TraceStatsModel* trace_stats_;
  QTableView* stats_table_;
  JobTracker* jobs_;        // the selection's summary
  JobTracker* stats_jobs_;  // the whole trace's statistics
  bool stats_fresh_ = false;
};

}  // namespace slimpack::ui
