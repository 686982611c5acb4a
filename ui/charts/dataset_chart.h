#pragma once
// The Dataset tab's plot: per strategy, the iteration time of every batch as a sorted curve in the
// strategy's column (the shape of the distribution at a glance: flat is steady, a hook at the right
// is a heavy tail), its median and p95 marked, the worst batch starred. A line under the plot says
// each strategy's solver time beside its iteration time. Hover names the batch; a click on a point
// asks to show that batch in the Gantt (batchClicked).
#include <QWidget>
#include <memory>
#include <vector>

#include "app/dataset.h"

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QLabel;
class QChart;
class QChartView;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace slimpack::ui {

class DatasetChart : public QWidget {
  Q_OBJECT
 public:
  explicit DatasetChart(QWidget* parent = nullptr);
  void setResult(std::shared_ptr<const DatasetResult> result);
  void setDark(bool dark);
  QChart* chart() const { return chart_; }
  QChartView* view() const { return view_; }
  // One series of batch points per strategy, in the result's order.
  const std::vector<QScatterSeries*>& strategySeries() const { return batches_; }
  QScatterSeries* medianSeries() const { return median_; }
  QScatterSeries* p95Series() const { return p95_; }
  QScatterSeries* worstSeries() const { return worst_; }
  // Where a batch of a strategy is drawn, and the batch drawn nearest to a point of a strategy's
  // column (-1 when none).
  QPointF pointOf(int strategy, int batch) const;
  int batchAt(int strategy, const QPointF& value) const;
  QString batchText(int strategy, int batch) const;
  // Under the plot, wrapped to its width: each strategy's solver p95 beside its median iteration
  // (can it plan the next batch while this one trains?). A line of its own, since category axis
  // labels are cut to a quarter of the plot ("fixed solver p95 9.32 ..." at 1024 pixels).
  QLabel* solverLine() const { return solver_; }

 signals:
  void batchClicked(int batch);

 private:
  void rebuild();
  void clearStrategySeries();
  void connectPoints(QScatterSeries* series, int strategy);
  int strategyAt(const QPointF& value) const;

  QChart* chart_;
  QChartView* view_;
  QCategoryAxis* x_axis_;
  QValueAxis* y_axis_;
  std::vector<QScatterSeries*> batches_;
  QScatterSeries* median_;
  QScatterSeries* p95_;
  QScatterSeries* worst_;
  QLabel* solver_;
  std::shared_ptr<const DatasetResult> result_;
  // Per strategy, the solved batches in the order drawn (by iteration time).
  std::vector<std::vector<int>> order_;
  bool dark_ = false;
};

}  // namespace slimpack::ui
