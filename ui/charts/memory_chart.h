#pragma once
// Peak memory per pipeline stage (bars, one set per replica) against the memory cap (a line).
#include <QWidget>

#include "jobs/explorer_snapshot.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace slimpack::ui {

class MemoryChart : public QWidget {
  Q_OBJECT
 public:
  explicit MemoryChart(QWidget* parent = nullptr);
  void setSnapshot(const SnapshotPtr& snapshot);
  void setDark(bool dark);

 private:
  QChart* chart_;
  QChartView* view_;
  SnapshotPtr snapshot_;
  bool dark_ = false;
};

}  // namespace slimpack::ui
