#include "trace/trace_diff_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <set>

namespace slimpack::ui {
namespace {

// One unit per duration column, picked from the column's largest magnitude, so that "0.00 ns"
// never sits next to "300 µs": every row of the column reads in the same unit.
struct ColumnUnit {
  double us_per_unit = 1.0;
  const char* name = "µs";
};

ColumnUnit unit_for(double max_abs_us) {
  if (max_abs_us >= 1e6) return {1e6, "s"};
  if (max_abs_us >= 1e3) return {1e3, "ms"};
  return {1.0, "µs"};
}

QString in_unit(double us, const ColumnUnit& u) {
  return QLocale(QLocale::English).toString(us / u.us_per_unit, 'f', 3) + QChar(' ') +
         QString::fromUtf8(u.name);
}

void add_categories(const ImportedTrace* t, std::set<std::string>& out) {
  if (!t) return;
  std::vector<char> seen(t->names.size(), 0);
  for (const TraceLane& lane : t->lanes)
    for (const TraceEvent& e : lane.events)
      if (e.cat >= 0 && static_cast<std::size_t>(e.cat) < seen.size())
        seen[static_cast<std::size_t>(e.cat)] = 1;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i] && !t->names[i].empty()) out.insert(t->names[i]);
}

// Whole counts as integers; per-step means (fractional) with two decimals.
QString count_text(const QLocale& locale, double n) {
  if (n == std::floor(n)) return locale.toString(qlonglong(n));
  return locale.toString(n, 'f', 2);
}

}  // namespace

TraceDiffModel::TraceDiffModel(QObject* parent) : QAbstractTableModel(parent) {
  options_.steps = StepRange{};  // per step by default, as HTA's TraceDiff compares
}

TraceDiffModel::Result TraceDiffModel::compute(const ImportedTrace* a, const ImportedTrace* b,
                                               TraceCompareOptions options) {
  Result out;
  out.options = std::move(options);
  if (a && b) {
    // Only steps asked for and missing fail: a run without profiler steps is compared whole.
    auto c = compare_traces(*a, *b, out.options);
    if (!c && out.options.steps) {
      TraceCompareOptions whole = out.options;
      whole.steps.reset();
      c = compare_traces(*a, *b, whole);
      out.whole_trace = true;
    }
    if (c) out.comparison = std::move(*c);
  }
  std::set<std::string> cats;
  add_categories(a, cats);
  add_categories(b, cats);
  for (const auto& c : cats) out.categories << QString::fromStdString(c);
  return out;
}

void TraceDiffModel::setResult(std::shared_ptr<const ImportedTrace> a,
                               std::shared_ptr<const ImportedTrace> b, Result result) {
  beginResetModel();
  a_ = std::move(a);
  b_ = std::move(b);
  options_ = std::move(result.options);
  comparison_ = std::move(result.comparison);
  whole_trace_ = result.whole_trace;
  categories_ = std::move(result.categories);
  pickUnits();
  endResetModel();
  if (sort_column_ >= 0) sort(sort_column_, sort_order_);
}

void TraceDiffModel::setTraces(std::shared_ptr<const ImportedTrace> a,
                               std::shared_ptr<const ImportedTrace> b) {
  Result r = compute(a.get(), b.get(), options_);
  setResult(std::move(a), std::move(b), std::move(r));
}

void TraceDiffModel::setCategory(const QString& category) {
  if (category.toStdString() == options_.category) return;
  options_.category = category.toStdString();
  recompute();
}

void TraceDiffModel::setFoldDigits(bool on) {
  if (on == options_.fold_digits) return;
  options_.fold_digits = on;
  recompute();
}

void TraceDiffModel::recompute() {
  beginResetModel();
  Result r = compute(a_.get(), b_.get(), options_);
  comparison_ = std::move(r.comparison);
  whole_trace_ = r.whole_trace;
  pickUnits();
  endResetModel();
  if (sort_column_ >= 0) sort(sort_column_, sort_order_);
}

void TraceDiffModel::pickUnits() {
  double max_a = 0.0, max_b = 0.0, max_d = 0.0;
  for (const NameDiff& d : comparison_.names) {
    max_a = std::max(max_a, std::abs(d.total_us_a));
    max_b = std::max(max_b, std::abs(d.total_us_b));
    max_d = std::max(max_d, std::abs(d.delta_us));
  }
  // Totals of A and B share a unit (they are read side by side); the delta has its own.
  const double totals = std::max(max_a, max_b);
  unit_total_ = unit_for(totals).us_per_unit;
  unit_delta_ = unit_for(max_d).us_per_unit;
}

int TraceDiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(comparison_.names.size());
}

int TraceDiffModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant TraceDiffModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const NameDiff& d = row(index.row());
  const QLocale locale(QLocale::English);
  if (role == RawRole) {
    switch (index.column()) {
      case Name:
        return QString::fromStdString(d.name);
      case CountA:
        return d.count_a;
      case CountB:
        return d.count_b;
      case TotalA:
        return d.total_us_a;
      case TotalB:
        return d.total_us_b;
      case Delta:
        return d.delta_us;
      case Status:
        return QString::fromLatin1(name_diff_status_name(d.status));
    }
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Name:
        return QString::fromStdString(d.name);
      case CountA:
        return count_text(locale, d.count_a);
      case CountB:
        return count_text(locale, d.count_b);
      case TotalA:  // a name absent from a run has no total there, not "0.00 ns"
        return d.count_a > 0 ? in_unit(d.total_us_a, unit_for(unit_total_)) : QStringLiteral("—");
      case TotalB:
        return d.count_b > 0 ? in_unit(d.total_us_b, unit_for(unit_total_)) : QStringLiteral("—");
      case Delta:
        return (d.delta_us > 0 ? QStringLiteral("+") : QString()) +
               in_unit(d.delta_us, unit_for(unit_delta_));
      case Status:
        return QString::fromLatin1(name_diff_status_name(d.status));
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Status)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && (index.column() == Delta || index.column() == Status)) {
    // Slower in B reads red, faster green; unchanged stays the default colour.
    switch (d.status) {
      case NameDiffStatus::Longer:
      case NameDiffStatus::Added:
        return QBrush(QColor(0xc0, 0x30, 0x30));
      case NameDiffStatus::Shorter:
      case NameDiffStatus::Removed:
        return QBrush(QColor(0x20, 0x8a, 0x40));
      case NameDiffStatus::Unchanged:
        break;
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Name) return QString::fromStdString(d.name);
  return {};
}

QVariant TraceDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name:
      return tr("Name");
    case CountA:
      return tr("Count A");
    case CountB:
      return tr("Count B");
    case TotalA:
      return tr("Total A");
    case TotalB:
      return tr("Total B");
    case Delta:
      return tr("Delta (B − A)");
    case Status:
      return tr("Status");
  }
  return {};
}

void TraceDiffModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount) return;
  sort_column_ = column;
  sort_order_ = order;
  emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
  const QModelIndexList before = persistentIndexList();
  std::vector<std::string> names_before;
  for (const QModelIndex& i : before) names_before.push_back(row(i.row()).name);
  auto key = [column](const NameDiff& d) -> double {
    switch (column) {
      case CountA:
        return static_cast<double>(d.count_a);
      case CountB:
        return static_cast<double>(d.count_b);
      case TotalA:
        return d.total_us_a;
      case TotalB:
        return d.total_us_b;
      case Delta:
        return d.delta_us;
      case Status:
        return static_cast<double>(d.status);
      default:
        return 0.0;
    }
  };
  auto& v = comparison_.names;
  std::stable_sort(v.begin(), v.end(), [&](const NameDiff& x, const NameDiff& y) {
    // Ties keep a stable, name-ordered result so two sorts of one column agree.
    if (column != Name && key(x) != key(y))
      return order == Qt::AscendingOrder ? key(x) < key(y) : key(x) > key(y);
    if (x.name != y.name)
      return (order == Qt::AscendingOrder || column != Name) ? x.name < y.name : x.name > y.name;
    return false;
  });
  // Names are unique per comparison: persistent indexes follow their row by name.
  QModelIndexList after;
  for (qsizetype i = 0; i < before.size(); ++i) {
    const std::string& name = names_before[static_cast<std::size_t>(i)];
    const auto it =
        std::find_if(v.begin(), v.end(), [&](const NameDiff& d) { return d.name == name; });
    after << index(static_cast<int>(it - v.begin()), before[i].column());
  }
  changePersistentIndexList(before, after);
  emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

}  // namespace slimpack::ui
