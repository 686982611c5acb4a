#include "models/compare_model.h"

#include <QBrush>
#include <QColor>

#include "models/format.h"

namespace slimpack::ui {

std::vector<CompareRow> compare_rows(const std::vector<CompareEntry>& entries) {
  // Speed-ups and the baseline come from core/app/compare.cpp, as in `slimpack compare`.
  std::vector<CompareRow> rows;
  for (const auto& e : entries) {
    CompareRow row;
    row.strategy = QString::fromStdString(e.strategy);
    if (!e.solved()) {
      row.error = readableMessage(e.reason);
      row.outcome = e.outcome;
      row.limit = e.limit;
      rows.push_back(row);
      continue;
    }
    row.iteration_time = e.sim->iteration_time;
    row.speedup = e.speedup.value_or(0.0);
    row.baseline = e.baseline;
    row.bubble_ratio = e.sim->bubble_ratio;
    row.peak_memory = e.sim->peak_memory_bytes;
    rows.push_back(row);
  }
  return rows;
}

namespace {
// What a stage over the memory cap needs (0 when the row did not fail on stage memory).
double needed_bytes(const CompareRow& row) {
  return row.limit && row.limit->limit == Limit::StageMemory && row.limit->stage >= 0
             ? row.limit->needed
             : 0.0;
}
}  // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setEntries(const std::vector<CompareEntry>& entries) {
  beginResetModel();
  rows_ = compare_rows(entries);
  unit_ = QStringLiteral("s");
  for (const auto& e : entries)
    if (e.sim) unit_ = QString::fromStdString(e.sim->time_unit);
  endResetModel();
}

int CompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const CompareRow& row = rows_[static_cast<std::size_t>(index.row())];
  const bool failed = !row.error.isEmpty();
  if (role == Qt::UserRole) {
    switch (index.column()) {
      case Strategy:
        return row.strategy;
      case IterationTime:
        return row.iteration_time;
      case Speedup:
        return row.speedup;
      case Bubble:
        return row.bubble_ratio;
      case PeakMemory:
        return failed ? needed_bytes(row) : row.peak_memory;
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole && failed) return row.error;
  if (role == Qt::ForegroundRole && failed) return QBrush(QColor(0xd6, 0x45, 0x45));
  if (role == Qt::DisplayRole) {
    if (index.column() == Strategy) return row.strategy;
    // The reason is in the row itself (the last column stretches), not only in a tooltip.
    if (failed) {
      if (index.column() == IterationTime)
        return row.outcome == RowOutcome::NotApplicable ? tr("not applicable") : tr("infeasible");
      if (index.column() == Speedup) return row.error;
      if (index.column() == PeakMemory && needed_bytes(row) > 0.0)
        return tr("needs %1 (stage %2)").arg(formatBytes(needed_bytes(row))).arg(row.limit->stage);
      return QString();
    }
    switch (index.column()) {
      case IterationTime:
        return formatTime(row.iteration_time, unit_);
      case Speedup:
        return formatRatio(row.speedup) + (row.baseline ? tr(" (baseline)") : QString());
      case Bubble:
        return formatPercent(row.bubble_ratio);
      case PeakMemory:
        return formatBytes(row.peak_memory);
      default:
        return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() != Strategy)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Speedup)
    return tr("Iteration time of the first strategy that solved (the baseline) over this one's");
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Strategy:
      return tr("Strategy");
    case IterationTime:
      return tr("Iteration time");
    case Speedup:
      return tr("Speed-up");
    case Bubble:
      return tr("Bubble");
    case PeakMemory:
      return tr("Peak memory");
    default:
      return {};
  }
}

}  // namespace slimpack::ui
