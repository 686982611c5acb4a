#pragma once
// The per-unit table of "measured against simulated" (core/trace/trace_check.h): one row per
// matched (replica, stage, pass, pack) unit with its simulated and measured durations and the
// relative error (none for a run that cannot be of the plan), and the measured events it was built
// from (file#event name). Sortable by any column; the check's own order (largest |error| first) is
// the initial one, so the worst units are on top.
#include "models/table_model.h"
#include "trace/trace_check.h"

namespace slimpack::ui {

class SimCheckModel : public TableModel<UnitComparison> {
  Q_OBJECT

 public:
  enum Column { Replica, Stage, Pass, Pack, Simulated, Measured, Error, Events, ColumnCount };
  // Qt::UserRole: the raw number (microseconds, error as a fraction) for sorting and tests.
  static constexpr int RawRole = Qt::UserRole;

  explicit SimCheckModel(QObject* parent = nullptr);

  // The check's units and the files their events name; `mismatch` is the check's verdict
  // (TraceRunCheck::mismatch): when set, the Error column is empty (the tooltip says why).
  void setUnits(const TraceCheck& check, const std::string& mismatch = {});
  const QString& mismatch() const { return mismatch_; }
  void clear();
  const UnitComparison& unit(int r) const { return row(r); }

  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

 private:
  TraceCheck sources_;  // only its `sources`, for unit_events_text
  QString mismatch_;
};

}  // namespace slimpack::ui
