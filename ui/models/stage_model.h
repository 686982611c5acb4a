#pragma once
// One row per (replica, stage): busy time, bubble ratio, peak memory, the cap and the headroom.
// Numbers are served raw under Qt::UserRole (for sorting and tests) and formatted for display.
#include <vector>

#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"
#include "models/table_model.h"

namespace slimpack::ui {

struct StageRow {
  int replica = 0;
  int stage = 0;
  double busy = 0.0;
  double bubble_ratio = 0.0;
  double peak_memory = 0.0;
  double cap = 0.0;  // 0 = not modelled
};

std::vector<StageRow> stage_rows(const SimResult& sim, double cap);

class StageModel : public TableModel<StageRow> {
  Q_OBJECT
 public:
  enum Column { Stage, Busy, Bubble, PeakMemory, Headroom, ColumnCount };
  explicit StageModel(QObject* parent = nullptr);

  void setSnapshot(const SnapshotPtr& snapshot);

 private:
  QString unit_ = QStringLiteral("s");
  bool replicas_ = false;  // label rows "R1 · S2" when there are several replicas
};

}  // namespace slimpack::ui
