#pragma once
// Slice-size sweep: iteration time (left axis) and bubble ratio (right axis) against S on a log2
// axis. Clicking a point selects that S (sliceSelected), which the configuration applies.
#include <QWidget>
#include <vector>

#include "app/sweep.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
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
  QChart* chart() const { return chart_; }  // for tests: the series show what was set

  // The sweep point nearest to a chart x value (S), for click handling; -1 when empty.
  static int nearestPoint(const std::vector<SweepPoint>& points, double s);
  // Any point (feasible or not) nearest to S, and the tooltip text of a point.
  static int pointAt(const std::vector<SweepPoint>& points, double s);
  static QString pointText(const SweepPoint& point);
  QScatterSeries* infeasibleSeries() const { return infeasible_; }
  QScatterSeries* currentSeries() const { return current_point_; }
  // Whether hovering a point of `series` shows its tooltip (S, iteration time, bubble).
  bool hasTooltip(const QScatterSeries* series) const;
  // The tooltip for a mouse at `pos` (the view's viewport): the point of those series drawn within
  // kPointHitPx of it; "" when none.
  QString toolTipAt(const QPoint& pos) const;
  QChartView* view() const { return view_; }

 signals:
  void sliceSelected(slimpack::Tokens s);

 private:
  void buildSeries();
  void applyColors();
  void updateSeries();
  void updateCurrent();
  QChart* chart_;
  QChartView* view_;
  QLineSeries* time_ = nullptr;
  QScatterSeries* time_points_ = nullptr;
  QLineSeries* bubble_ = nullptr;
  QScatterSeries* bubble_points_ = nullptr;
  QScatterSeries* current_point_ = nullptr;
  QScatterSeries* infeasible_ = nullptr;
  QLogValueAxis* x_axis_ = nullptr;
  QValueAxis* time_axis_ = nullptr;
  QValueAxis* bubble_axis_ = nullptr;
  std::vector<SweepPoint> points_;
  std::vector<const QScatterSeries*> with_tooltips_;
  Tokens current_ = 0;
  bool dark_ = false;
};

}  // namespace slimpack::ui
