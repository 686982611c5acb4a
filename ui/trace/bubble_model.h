#pragma once
// The Bubbles view's table: per stage two rows, the measured run and the simulated plan, each
// with its busy time and its idle time by cause (dependency, transfer, fill and drain, other) and
// in all, the numbers of `slimpack trace pipeline` (core/app/trace_pipeline.h). In stage order.
#include <array>

#include "app/trace_pipeline.h"
#include "models/table_model.h"

namespace slimpack::ui {

struct BubbleRow {
  int replica = 0;
  int stage = 0;
  bool simulated = false;
  double busy_us = 0.0;
  double idle_us = 0.0;
  std::array<double, kBubbleCauses> by_cause{};
};

class BubbleModel : public TableModel<BubbleRow> {
  Q_OBJECT

 public:
  enum Column { Stage, Run, Busy, Dependency, Transfer, Fill, Other, Idle, ColumnCount };
  // Qt::UserRole of a time cell: microseconds (tests read the core's numbers back through it).
  static constexpr int MicrosecondsRole = Qt::UserRole;

  explicit BubbleModel(QObject* parent = nullptr);

  void setResult(const TracePipeline& result);
  void clear();
};

}  // namespace slimpack::ui
