#pragma once
// The Search tab's plot: tokens/s per GPU of every solved configuration against GPU count (log2)
// or peak memory; the Pareto front in blue. Hover says which configuration and its numbers; a
// click asks to load it (configurationClicked).
#include <QWidget>
#include <memory>
#include <vector>

#include "app/search.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;
class QAbstractAxis;
QT_END_NAMESPACE

namespace slimpack::ui {

class SearchChart : public QWidget {
  Q_OBJECT
 public:
  enum class XAxis { Gpus, PeakMemory };
  explicit SearchChart(QWidget* parent = nullptr);
  void setResult(std::shared_ptr<const SearchResult> result);
  void setXAxis(XAxis axis);
  void setDark(bool dark);
  QChart* chart() const { return chart_; }
  QChartView* view() const { return view_; }
  QScatterSeries* frontSeries() const { return front_; }
  QScatterSeries* otherSeries() const { return others_; }
  // The result row drawn nearest to a chart point (-1 when none), and its tooltip.
  int rowAt(const QPointF& value) const;
  QString rowText(int row) const;
  // The tooltip for a mouse at `pos` (the view's viewport): the solved configuration drawn within
  // kPointHitPx of it, with its figures; "" when none.
  QString toolTipAt(const QPoint& pos) const;

 signals:
  void configurationClicked(int row);

 private:
  double xOf(const SearchRow& row) const;
  void rebuild();
  QChart* chart_;
  QChartView* view_;
  QScatterSeries* others_ = nullptr;
  QScatterSeries* front_ = nullptr;
  QLogValueAxis* gpus_axis_ = nullptr;
  QValueAxis* memory_axis_ = nullptr;
  QValueAxis* y_axis_ = nullptr;
  std::shared_ptr<const SearchResult> result_;
  XAxis x_ = XAxis::Gpus;
  bool dark_ = false;
};

}  // namespace slimpack::ui
