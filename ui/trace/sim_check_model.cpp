#include "trace/sim_check_model.h"

#include <cmath>

#include "app/trace_report.h"
#include "models/format.h"
#include "plan/pack_name.h"
#include "trace/trace_view.h"

namespace slimpack::ui {

namespace {

QString pass_name(const UnitComparison& u) {
  return u.pass == slimpack::Pass::Forward ? QStringLiteral("forward") : QStringLiteral("backward");
}

// A column whose cell shows its raw value as it is.
SimCheckModel::ColumnSpec as_is(const QString& header, Qt::Alignment alignment,
                                SimCheckModel::Cell value) {
  return {.header = header, .display = value, .sortValue = value, .alignment = alignment};
}

// A duration in microseconds, shown in a readable unit.
SimCheckModel::ColumnSpec duration(const QString& header, double UnitComparison::*us) {
  return {.header = header,
          .display = [us](const UnitComparison& u) { return trace_duration_text(u.*us * 1e-6); },
          .sortValue = [us](const UnitComparison& u) { return u.*us; },
          .alignment = kNumberAlignment};
}

}  // namespace

SimCheckModel::SimCheckModel(QObject* parent) : TableModel(parent) {
  setColumns({
      as_is(tr("Replica"), kNumberAlignment, [](const UnitComparison& u) { return u.replica; }),
      as_is(tr("Stage"), kNumberAlignment, [](const UnitComparison& u) { return u.stage; }),
      as_is(tr("Pass"), {}, pass_name),
      // The number of the pack's name (F3 is pack 3), as the Gantt and the export name it.
      as_is(tr("Pack"), kNumberAlignment,
            [](const UnitComparison& u) { return pack_number(u.pack); }),
      duration(tr("Simulated"), &UnitComparison::simulated_us),
      duration(tr("Measured"), &UnitComparison::measured_us),
      // Empty for a run that cannot be of the plan: its percentage would compare two runs.
      {.header = tr("Error"),
       .display =
           [this](const UnitComparison& u) {
             return mismatch_.isEmpty() ? QVariant(formatPercent(u.error)) : QVariant();
           },
       .sortValue =
           [this](const UnitComparison& u) {
             return mismatch_.isEmpty() ? QVariant(u.error) : QVariant();
           },
       .alignment = kNumberAlignment,
       .tooltip =
           [this](const UnitComparison&) {
             return mismatch_.isEmpty() ? QVariant()
                                        : QVariant(tr("Not a run of the plan: %1").arg(mismatch_));
           }},
      // The same words as the CLI's "from ..." line (core/app/trace_report.h).
      as_is(tr("Events"), {},
            [this](const UnitComparison& u) {
              return QString::fromStdString(unit_events_text(u, sources_));
            }),
  });
}

void SimCheckModel::setUnits(const TraceCheck& check, const std::string& mismatch) {
  resetRows(check.units, [this, &check, &mismatch] {
    sources_.sources = check.sources;
    mismatch_ = QString::fromStdString(mismatch);
  });
}

void SimCheckModel::clear() {
  resetRows({}, [this] {
    sources_.sources.clear();
    mismatch_.clear();
  });
}

void SimCheckModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount || column == Events) return;
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
  sortRows([&](const UnitComparison& a, const UnitComparison& b) {
    return order == Qt::AscendingOrder ? key(a) < key(b) : key(b) < key(a);
  });
}

}  // namespace slimpack::ui
