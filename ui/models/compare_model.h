#pragma once
// The delta table of the compare view: one row per strategy with iteration time, speed-up over the
// first strategy that solved, bubble ratio and peak memory (the same columns as `slimpack
// compare`).
#include <optional>
#include <vector>

#include "app/compare.h"
#include "models/table_model.h"

namespace slimpack::ui {

struct CompareRow {
  QString strategy;
  double iteration_time = 0.0;
  double speedup = 0.0;   // baseline's iteration time / this one's; 0 when this one failed
  bool baseline = false;  // the first strategy that solved: the speed-ups are relative to it
  double bubble_ratio = 0.0;
  double peak_memory = 0.0;
  QString error;  // the strategy failed; the numbers are meaningless
  RowOutcome outcome = RowOutcome::Solved;
  // Infeasible: the binding limit as values; a stage over the memory cap shows what it needs in the
  // peak-memory column.
  std::optional<InfeasibleDetail> limit;
};

std::vector<CompareRow> compare_rows(const std::vector<CompareEntry>& entries);

// Qt::UserRole holds each cell's raw number (a failed row's peak memory: what its stage needs).
class CompareModel : public TableModel<CompareRow> {
  Q_OBJECT
 public:
  enum Column { Strategy, IterationTime, Speedup, Bubble, PeakMemory, ColumnCount };
  explicit CompareModel(QObject* parent = nullptr);

  void setEntries(const std::vector<CompareEntry>& entries);
  const QString& timeUnit() const { return unit_; }  // "s", or "units" for explicit-time plans

 private:
  QString unit_ = QStringLiteral("s");
};

}  // namespace slimpack::ui
