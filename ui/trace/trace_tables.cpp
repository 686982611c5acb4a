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

TraceMatchModel::TraceMatchModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceMatchModel::setMatches(std::shared_ptr<const TraceTimeline> timeline,
                                 std::vector<TraceEventRef> refs) {
  beginResetModel();
  timeline_ = std::move(timeline);
  refs_ = std::move(refs);
  if (timeline_) {
    const TraceTimeline* t = timeline_.get();
    std::stable_sort(refs_.begin(), refs_.end(), [t](TraceEventRef a, TraceEventRef b) {
      return t->event(a)->start_us < t->event(b)->start_us;
    });
  }
  endResetModel();
}

void TraceMatchModel::rebase(std::shared_ptr<const TraceTimeline> timeline) {
  beginResetModel();
  timeline_ = std::move(timeline);
  endResetModel();
}

TraceEventRef TraceMatchModel::event(int row) const {
  return row >= 0 && row < rowCount() ? refs_[static_cast<std::size_t>(row)] : TraceEventRef{};
}

int TraceMatchModel::rowOf(TraceEventRef ref) const {
  for (std::size_t r = 0; r < refs_.size(); ++r)
    if (refs_[r].source == ref.source && refs_[r].lane == ref.lane && refs_[r].index == ref.index)
      return static_cast<int>(r);
  return -1;
}

int TraceMatchModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(refs_.size());
}

int TraceMatchModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant TraceMatchModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !timeline_ || (role != Qt::DisplayRole && role != Qt::UserRole))
    return {};
  const TraceEventRef ref = refs_[static_cast<std::size_t>(index.row())];
  const TraceEvent* e = timeline_->event(ref);
  const double start_us = e->start_us - timeline_->origin_us();
  switch (index.column()) {
    case Name:
      return q(timeline_->name(ref));
    case Lane:
      return trace_lane_text(*timeline_, ref);
    case Start:
      return role == Qt::UserRole ? QVariant(start_us) : QVariant(us_text(start_us));
    case Duration:
      return role == Qt::UserRole ? QVariant(e->dur_us) : QVariant(us_text(e->dur_us));
    default:
      return {};
  }
}

QVariant TraceMatchModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* kNames[] = {"Name", "Lane", "Start", "Duration"};
  return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

TraceStatsModel::TraceStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceStatsModel::setRows(std::vector<TraceNameStat> rows) {
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
  sort(sort_column_, sort_order_);
}

int TraceStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TraceStatsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

namespace {

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

QVariant TraceStatsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const TraceNameStat& r = rows_[static_cast<std::size_t>(index.row())];
  if (role == Qt::TextAlignmentRole && index.column() != Name)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
  if (index.column() == Name) return q(r.name);
  if (role == Qt::UserRole) return key(r, index.column());
  if (index.column() == Count) return QString::number(r.count);
  return us_text(key(r, index.column()));
}

QVariant TraceStatsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* kNames[] = {"Name", "Count", "Total", "Self", "Mean", "Max"};
  return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

void TraceStatsModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount) return;
  sort_column_ = column;
  sort_order_ = order;
  emit layoutAboutToBeChanged();
  std::stable_sort(rows_.begin(), rows_.end(),
                   [column, order](const TraceNameStat& a, const TraceNameStat& b) {
                     if (column == Name)
                       return order == Qt::AscendingOrder ? a.name < b.name : a.name > b.name;
                     const double ka = key(a, column);
                     const double kb = key(b, column);
                     if (ka != kb) return order == Qt::AscendingOrder ? ka < kb : ka > kb;
                     return a.name < b.name;
                   });
  emit layoutChanged();
}

}  // namespace slimpack::ui
