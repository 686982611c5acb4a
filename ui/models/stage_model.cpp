#include "models/stage_model.h"

#include <QBrush>
#include <QColor>

#include "models/format.h"

namespace slimpack::ui {

std::vector<StageRow> stage_rows(const SimResult& sim, double cap) {
  std::vector<StageRow> rows;
  for (std::size_t r = 0; r < sim.replicas.size(); ++r) {
    const auto& stages = sim.replicas[r].stages;
    for (std::size_t s = 0; s < stages.size(); ++s)
      rows.push_back({static_cast<int>(r), static_cast<int>(s), stages[s].busy,
                      stages[s].bubble_ratio, stages[s].peak_memory_bytes, cap});
  }
  return rows;
}

StageModel::StageModel(QObject* parent) : QAbstractTableModel(parent) {}

void StageModel::setSnapshot(const SnapshotPtr& snapshot) {
  beginResetModel();
  rows_ =
      snapshot ? stage_rows(snapshot->sim, snapshot->memory_cap_bytes) : std::vector<StageRow>{};
  unit_ = snapshot ? QString::fromStdString(snapshot->sim.time_unit) : QStringLiteral("s");
  replicas_ = snapshot && snapshot->sim.replicas.size() > 1;
  endResetModel();
}

int StageModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int StageModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant StageModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const StageRow& row = rows_[static_cast<std::size_t>(index.row())];
  const double headroom = row.cap > 0 ? row.cap - row.peak_memory : 0.0;
  if (role == Qt::UserRole) {
    switch (index.column()) {
      case Stage:
        return row.stage;
      case Busy:
        return row.busy;
      case Bubble:
        return row.bubble_ratio;
      case PeakMemory:
        return row.peak_memory;
      case Headroom:
        return headroom;
      default:
        return {};
    }
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Stage:
        return replicas_ ? QStringLiteral("R%1 · S%2").arg(row.replica).arg(row.stage)
                         : QStringLiteral("Stage %1").arg(row.stage);
      case Busy:
        return formatTime(row.busy, unit_);
      case Bubble:
        return formatPercent(row.bubble_ratio);
      case PeakMemory:
        return formatBytes(row.peak_memory);
      case Headroom:
        return row.cap > 0 ? formatBytes(headroom) : QStringLiteral("-");
      default:
        return {};
    }
  }
  if (role == Qt::ForegroundRole && index.column() == Headroom && row.cap > 0 && headroom < 0)
    return QBrush(QColor(0xd6, 0x45, 0x45));
  if (role == Qt::TextAlignmentRole && index.column() != Stage)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant StageModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Stage:
      return tr("Stage");
    case Busy:
      return tr("Busy");
    case Bubble:
      return tr("Bubble");
    case PeakMemory:
      return tr("Peak memory");
    case Headroom:
      return tr("Headroom");
    default:
      return {};
  }
}

}  // namespace slimpack::ui
