#pragma once
// The trace view's tables: the events of a search (TraceMatchModel) and events by name
// (TraceStatsModel: a selected range or the whole trace, core/trace/trace_stats.h). Both sort by
// any column (numbers as numbers); Qt::UserRole holds the sort key.
#include <memory>
#include <vector>

#include "models/table_model.h"
#include "render/trace_timeline.h"
#include "trace/trace_stats.h"

namespace slimpack::ui {

class TraceMatchModel : public TableModel<TraceEventRef> {
  Q_OBJECT

 public:
  enum Column { Name, Lane, Start, Duration, ColumnCount };
  explicit TraceMatchModel(QObject* parent = nullptr);

  // The matches as events (the view's marked bars resolved), in time order.
  void setMatches(std::shared_ptr<const TraceTimeline> timeline, std::vector<TraceEventRef> refs);
  TraceEventRef event(int row) const;
  // The same events of the same run with another origin (their start times change).
  void rebase(std::shared_ptr<const TraceTimeline> timeline);
  // Row of an event, -1 when it is no match.
  int rowOf(TraceEventRef ref) const;

 private:
  std::shared_ptr<const TraceTimeline> timeline_;
};

class TraceStatsModel : public TableModel<TraceNameStat> {
  Q_OBJECT

 public:
  enum Column { Name, Count, Total, Self, Mean, Max, ColumnCount };
  explicit TraceStatsModel(QObject* parent = nullptr);

  void setRows(std::vector<TraceNameStat> rows);

  void sort(int column, Qt::SortOrder order) override;

 private:
  int sort_column_ = Total;
  Qt::SortOrder sort_order_ = Qt::DescendingOrder;
};

// "rank 1 · python3 / thread 7": where an event of `timeline` is.
QString trace_lane_text(const TraceTimeline& timeline, TraceEventRef ref);

}  // namespace slimpack::ui
