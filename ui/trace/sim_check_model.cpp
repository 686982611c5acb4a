#include "trace/sim_check_model.h"

#include <algorithm>
#include <cmath>

#include "app/trace_report.h"
#include "models/format.h"
#include "trace/trace_view.h"

namespace slimpack::ui {

SimCheckModel::SimCheckModel(QObject* parent) : QAbstractTableModel(parent) {}

void SimCheckModel::setUnits(const TraceCheck& check) {
  beginResetModel();
  units_ = check.units;
  sources_.sources = check.sources;
  endResetModel();
}

void SimCheckModel::clear() {
  beginResetModel();
  units_.clear();
  sources_.sources.clear();
  endResetModel();
}

int SimCheckModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(units_.size());
}

int SimCheckModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant SimCheckModel::raw(const UnitComparison& u, int column) const {
  switch (column) {
    case Replica:
      return u.replica;
    case Stage:
      return u.stage;
    case Pass:
      return u.pass == slimpack::Pass::Forward ? QStringLiteral("forward")
                                               : QStringLiteral("backward");
    case Pack:
      return u.pack + 1;  // 1-based, as the export names packs (F3 is pack 3)
    case Simulated:
      return u.simulated_us;
    case Measured:
      return u.measured_us;
    case Error:
      return u.error;
    case Events:
      // The same words as the CLI's "from ..." line (core/app/trace_report.h).
      return QString::fromStdString(unit_events_text(u, sources_));
    default:
      return {};
  }
}

QVariant SimCheckModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const UnitComparison& u = units_[static_cast<std::size_t>(index.row())];
  const int c = index.column();
  if (role == RawRole) return raw(u, c);
  if (role == Qt::TextAlignmentRole)
    return c == Pass || c == Events ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (c) {
    case Simulated:
      return trace_duration_text(u.simulated_us * 1e-6);
    case Measured:
      return trace_duration_text(u.measured_us * 1e-6);
    case Error:
      return formatPercent(u.error);
    default:
      return raw(u, c);
  }
}

QVariant SimCheckModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Replica:
      return tr("Replica");
    case Stage:
      return tr("Stage");
    case Pass:
      return tr("Pass");
    case Pack:
      return tr("Pack");
    case Simulated:
      return tr("Simulated");
    case Measured:
      return tr("Measured");
    case Error:
      return tr("Error");
    case Events:
      return tr("Events");
    default:
      return {};
  }
}

void SimCheckModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount || column == Events) return;
  emit layoutAboutToBeChanged();
  auto key = [column](const UnitComparison& u) -> double {
    switch (column) {
      case Replica:
        return u.replica;
      case Stage:
        return u.stage;
      case Pass:
        return static_cast<double>(u.pass == slimpack::Pass::Forward ? 0 : 1);
      case Pack:
        return u.pack;
      case Simulated:
        return u.simulated_us;
      case Measured:
        return u.measured_us;
      default:
        return std::abs(u.error);  // Error sorts by size: the worst at one end
    }
  };
  std::stable_sort(units_.begin(), units_.end(), [&](const auto& a, const auto& b) {
    return order == Qt::AscendingOrder ? key(a) < key(b) : key(b) < key(a);
  });
  emit layoutChanged();
}

}  // namespace slimpack::ui
