#include "trace/trace_diff_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <algorithm>
#include <cmath>

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

// Whole counts as integers; per-step means (fractional) with two decimals.
QString count_text(const QLocale& locale, double n) {
  if (n == std::floor(n)) return locale.toString(qlonglong(n));
  return locale.toString(n, 'f', 2);
}

// Slower in B reads red, faster green; unchanged stays the default colour.
QVariant status_colour(const NameDiff& d) {
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
  return {};
}

QString status_text(const NameDiff& d) {
  return QString::fromLatin1(name_diff_status_name(d.status));
}

QString name_text(const NameDiff& d) {
  return QString::fromStdString(d.name);
}

}  // namespace

TraceDiffModel::TraceDiffModel(QObject* parent) : TableModel(parent) {
  options_.steps = StepRange{};  // per step by default, as HTA's TraceDiff compares
  auto count = [](const QString& header, double NameDiff::*n) -> ColumnSpec {
    return {
        .header = header,
        .display = [n](const NameDiff& d) { return count_text(QLocale(QLocale::English), d.*n); },
        .sortValue = [n](const NameDiff& d) { return d.*n; },
        .alignment = kNumberAlignment};
  };
  // A name absent from a run has no total there, not "0.00 ns".
  auto total = [this](const QString& header, double NameDiff::*us, double NameDiff::*n) {
    return ColumnSpec{.header = header,
                      .display = [this, us, n](const NameDiff& d) -> QVariant {
                        return d.*n > 0 ? in_unit(d.*us, unit_for(unit_total_))
                                        : QStringLiteral("—");
                      },
                      .sortValue = [us](const NameDiff& d) { return d.*us; },
                      .alignment = kNumberAlignment};
  };
  setColumns({
      {.header = tr("Name"), .display = name_text, .sortValue = name_text, .tooltip = name_text},
      count(tr("Count A"), &NameDiff::count_a),
      count(tr("Count B"), &NameDiff::count_b),
      total(tr("Total A"), &NameDiff::total_us_a, &NameDiff::count_a),
      total(tr("Total B"), &NameDiff::total_us_b, &NameDiff::count_b),
      {.header = tr("Delta (B − A)"),
       .display =
           [this](const NameDiff& d) {
             return (d.delta_us > 0 ? QStringLiteral("+") : QString()) +
                    in_unit(d.delta_us, unit_for(unit_delta_));
           },
       .sortValue = [](const NameDiff& d) { return d.delta_us; },
       .alignment = kNumberAlignment,
       .foreground = status_colour},
      {.header = tr("Status"),
       .display = status_text,
       .sortValue = status_text,
       .foreground = status_colour},
  });
}

TraceDiffModel::Result TraceDiffModel::compute(const std::vector<RankSource>& a,
                                               const std::vector<RankSource>& b,
                                               TraceCompareOptions options) {
  Result out;
  out.options = options;
  if (a.empty() || b.empty()) return out;
  // core/app's one diff of two runs (`slimpack trace compare` calls it too): the ranks merged,
  // per step as asked, or whole when a run has no profiler step.
  auto c = compare_runs(a, b, options, /*steps_or_whole=*/true);
  if (!c) {
    // A category a run lacks, steps that do not parse: the CLI's message, an empty table.
    out.comparison.note = c.error().message;
    out.a = merge_rank_traces(a);
    out.b = merge_rank_traces(b);
    return out;
  }
  out.a = std::move(c->a);
  out.b = std::move(c->b);
  out.comparison = std::move(c->comparison);
  out.whole_trace = c->whole_trace;
  for (const auto& cat : c->categories) out.categories << QString::fromStdString(cat);
  return out;
}

TraceDiffModel::Result TraceDiffModel::compute(const ImportedTrace* a, const ImportedTrace* b,
                                               TraceCompareOptions options) {
  // Borrowed, not owned: the caller keeps the traces alive for the call.
  auto one = [](const ImportedTrace* t) {
    std::vector<RankSource> run;
    if (t)
      run.push_back(
          {std::shared_ptr<const ImportedTrace>(std::shared_ptr<const ImportedTrace>(), t), 0,
           t->source});
    return run;
  };
  return compute(one(a), one(b), std::move(options));
}

void TraceDiffModel::setResult(std::shared_ptr<const ImportedTrace> a,
                               std::shared_ptr<const ImportedTrace> b, Result result) {
  a_ = std::move(a);
  b_ = std::move(b);
  show(std::move(result));
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
  show(compute(a_.get(), b_.get(), options_));
}

void TraceDiffModel::show(Result result) {
  resetRows(std::move(result.comparison.names), [this, &result] {
    options_ = std::move(result.options);
    comparison_ = std::move(result.comparison);
    comparison_.names.clear();  // moved into the rows
    whole_trace_ = result.whole_trace;
    categories_ = std::move(result.categories);
    pickUnits();
  });
  if (sort_column_ >= 0) sort(sort_column_, sort_order_);
}

void TraceDiffModel::pickUnits() {
  double max_a = 0.0, max_b = 0.0, max_d = 0.0;
  for (const NameDiff& d : rows()) {
    max_a = std::max(max_a, std::abs(d.total_us_a));
    max_b = std::max(max_b, std::abs(d.total_us_b));
    max_d = std::max(max_d, std::abs(d.delta_us));
  }
  // Totals of A and B share a unit (they are read side by side); the delta has its own.
  const double totals = std::max(max_a, max_b);
  unit_total_ = unit_for(totals).us_per_unit;
  unit_delta_ = unit_for(max_d).us_per_unit;
}

void TraceDiffModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount) return;
  sort_column_ = column;
  sort_order_ = order;
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
  sortRows([&](const NameDiff& x, const NameDiff& y) {
    // Ties keep a stable, name-ordered result so two sorts of one column agree.
    if (column != Name && key(x) != key(y))
      return order == Qt::AscendingOrder ? key(x) < key(y) : key(x) > key(y);
    if (x.name != y.name)
      return (order == Qt::AscendingOrder || column != Name) ? x.name < y.name : x.name > y.name;
    return false;
  });
}

}  // namespace slimpack::ui
