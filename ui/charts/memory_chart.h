#pragma once
// Peak memory per pipeline stage (bars, one set per replica) against the memory cap (a line).
#include <QWidget>

#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QBarSeries;
class QChart;
class QChartView;
class QLineSeries;
QT_END_NAMESPACE

namespace slimpack::ui {

class MemoryChart : public QWidget {
  Q_OBJECT
 public:
  explicit MemoryChart(QWidget* parent = nullptr);
  void setSnapshot(const SnapshotPtr& snapshot);
  void setDark(bool dark);
  QChart* chart() const { return chart_; }  // for tests: the series show what was set

 private:
  // The chart's shape: one bar set per shown replica, one bar per stage, a cap line or none.
  struct Shape {
    int stages = 0;
    int sets = 0;
    bool cap = false;
    bool operator==(const Shape&) const = default;
  };
  void rebuild(const Shape& shape);
  void fill(const ExplorerSnapshot& snapshot);

  QChart* chart_;
  QChartView* view_;
  QBarSeries* bars_ = nullptr;
  QLineSeries* cap_ = nullptr;
  Shape shape_;
  SnapshotPtr snapshot_;
  bool dark_ = false;
};

}  // namespace slimpack::ui
