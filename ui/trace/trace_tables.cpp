#include "trace/trace_tables.h"

#include <algorithm>

#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

QString us_text(double us) {
  return trace_duration_text(us * 1e-6);
}

QString event_name(const TraceTimeline& t, TraceEventRef ref) {
  return q(t.name(ref));
}

// From the timeline's origin, as the view's time axis reads.
double start_us(const TraceTimeline& t, TraceEventRef ref) {
  return t.event(ref)->start_us - t.origin_us();
}

double duration_us(const TraceTimeline& t, TraceEventRef ref) {
  return t.event(ref)->dur_us;
}

}  // namespace

QString trace_lane_text(const TraceTimeline& timeline, TraceEventRef ref) {
  if (!ref.valid()) return {};
  const TraceSource& src = timeline.sources()[static_cast<std::size_t>(ref.source)];
  const TraceLane& lane = src.trace->lanes[static_cast<std::size_t>(ref.lane)];
  QString where = src.rank >= 0 ? QStringLiteral("rank %1 · ").arg(src.rank) : QString();
  where += lane.label.empty() ? QStringLiteral("pid %1 / tid %2").arg(q(lane.pid), q(lane.tid))
                              : q(lane.label);
  return where;
}

TraceMatchModel::TraceMatchModel(QObject* parent) : TableModel(parent) {
  // Name and lane sort as the text they show, times as numbers; without a timeline a cell is
  // empty.
  auto text = [this](QString (*of)(const TraceTimeline&, TraceEventRef)) -> Cell {
    return [this, of](TraceEventRef ref) {
      return timeline_ ? QVariant(of(*timeline_, ref)) : QVariant();
    };
  };
  auto time = [this](const QString& header, double (*us)(const TraceTimeline&, TraceEventRef)) {
    return ColumnSpec{.header = header,
                      .display =
                          [this, us](TraceEventRef ref) {
                            return timeline_ ? QVariant(us_text(us(*timeline_, ref))) : QVariant();
                          },
                      .sortValue =
                          [this, us](TraceEventRef ref) {
                            return timeline_ ? QVariant(us(*timeline_, ref)) : QVariant();
                          }};
  };
  const Cell name = text(event_name);
  const Cell lane = text(trace_lane_text);
  setColumns({
      {.header = tr("Name"), .display = name, .sortValue = name},
      {.header = tr("Lane"), .display = lane, .sortValue = lane},
      time(tr("Start"), start_us),
      time(tr("Duration"), duration_us),
  });
}

void TraceMatchModel::setMatches(std::shared_ptr<const TraceTimeline> timeline,
                                 std::vector<TraceEventRef> refs) {
  if (const TraceTimeline* t = timeline.get())
    std::stable_sort(refs.begin(), refs.end(), [t](TraceEventRef a, TraceEventRef b) {
      return t->event(a)->start_us < t->event(b)->start_us;
    });
  resetRows(std::move(refs), [this, &timeline] { timeline_ = std::move(timeline); });
}

void TraceMatchModel::rebase(std::shared_ptr<const TraceTimeline> timeline) {
  resetRows(rows(), [this, &timeline] { timeline_ = std::move(timeline); });
}

TraceEventRef TraceMatchModel::event(int r) const {
  return r >= 0 && r < rowCount() ? row(r) : TraceEventRef{};
}

int TraceMatchModel::rowOf(TraceEventRef ref) const {
  for (int r = 0; r < rowCount(); ++r) {
    const TraceEventRef& e = row(r);
    if (e == ref) return r;
  }
  return -1;
}

namespace {

// The number a column shows and sorts by: the count, or microseconds.
double key(const TraceNameStat& r, int column) {
  switch (column) {
    case TraceStatsModel::Count:
      return static_cast<double>(r.count);
    case TraceStatsModel::Total:
      return r.total_us;
    case TraceStatsModel::Self:
      return r.self_us;
    case TraceStatsModel::Mean:
      return r.mean_us();
    case TraceStatsModel::Max:
      return r.max_us;
    default:
      return 0.0;
  }
}

}  // namespace

TraceStatsModel::TraceStatsModel(QObject* parent) : TableModel(parent) {
  auto duration = [](const QString& header, int column) {
    return ColumnSpec{
        .header = header,
        .display = [column](const TraceNameStat& r) { return us_text(key(r, column)); },
        .sortValue = [column](const TraceNameStat& r) { return key(r, column); },
        .alignment = kNumberAlignment};
  };
  const Cell name = [](const TraceNameStat& r) { return q(r.name); };
  setColumns({
      {.header = tr("Name"), .display = name, .sortValue = name},
      {.header = tr("Count"),
       .display = [](const TraceNameStat& r) { return QString::number(r.count); },
       .sortValue = [](const TraceNameStat& r) { return key(r, Count); },
       .alignment = kNumberAlignment},
      duration(tr("Total"), Total),
      duration(tr("Self"), Self),
      duration(tr("Mean"), Mean),
      duration(tr("Max"), Max),
  });
}

void TraceStatsModel::setRows(std::vector<TraceNameStat> rows) {
  resetRows(std::move(rows));
  sort(sort_column_, sort_order_);
}

void TraceStatsModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount) return;
  sort_column_ = column;
  sort_order_ = order;
  sortRows([column, order](const TraceNameStat& a, const TraceNameStat& b) {
    if (column == Name) return order == Qt::AscendingOrder ? a.name < b.name : a.name > b.name;
    const double ka = key(a, column);
    const double kb = key(b, column);
    if (ka != kb) return order == Qt::AscendingOrder ? ka < kb : ka > kb;
    return a.name < b.name;
  });
}

}  // namespace slimpack::ui
