#pragma once
// The Dataset tab's table: one row per strategy with its iteration time, peak memory and solver
// time over the batches (median / p95 / max), the speed-up of its median, the worst batch and the
// batches it could not place, as `slimpack dataset` prints them.
#include <memory>

#include "app/dataset.h"
#include "models/table_model.h"

namespace slimpack::ui {

struct DatasetTableRow {
  const DatasetResult* result = nullptr;  // owned by the model
  int strategy = 0;                       // index in result->strategies
  const DatasetStrategy& s() const {
    return result->strategies[static_cast<std::size_t>(strategy)];
  }
};

class DatasetModel : public TableModel<DatasetTableRow> {
  Q_OBJECT
 public:
  enum Column {
    Strategy,
    Median,
    P95,
    Max,
    Speedup,
    PeakMedian,
    PeakMax,
    SolverMedian,
    SolverP95,
    Worst,
    NotSolved,
    ColumnCount
  };
  explicit DatasetModel(QObject* parent = nullptr);
  void setResult(std::shared_ptr<const DatasetResult> result);

 private:
  std::shared_ptr<const DatasetResult> result_;
};

}  // namespace slimpack::ui
