#pragma once
// Slice-size sweep: iteration time (left axis) and bubble ratio (right axis) against S on a log2
// axis. Clicking a point selects that S (sliceSelected), which the configuration applies.
#include <QWidget>
#include <vector>

#include "jobs/sweep.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace slimpack::ui {

class SweepChart : public QWidget {
  Q_OBJECT
 public:
  explicit SweepChart(QWidget* parent = nullptr);
  void setPoints(const std::vector<SweepPoint>& points);
  void setCurrentSlice(Tokens s);  // marks the S of the current plan
  void setDark(bool dark);
  const std::vector<SweepPoint>& points() const { return points_; }

  // The sweep point nearest to a chart x value (S), for click handling; -1 when empty.
  static int nearestPoint(const std::vector<SweepPoint>& points, double s);

 signals:
  void sliceSelected(slimpack::Tokens s);

 private:
  void rebuild();
  QChart* chart_;
  QChartView* view_;
  std::vector<SweepPoint> points_;
  Tokens current_ = 0;
  bool dark_ = false;
};

}  // namespace slimpack::ui
