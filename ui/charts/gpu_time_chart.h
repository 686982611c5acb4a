#pragma once
// GPU time per rank of a measured run as stacked bars: computation, exposed communication,
// memory copies and idle (core/trace/trace_summary.h), which stack up to the window exactly.
#include <QStringList>
#include <QWidget>
#include <vector>

#include "trace/trace_summary.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace slimpack::ui {

class GpuTimeChart : public QWidget {
  Q_OBJECT
 public:
  explicit GpuTimeChart(QWidget* parent = nullptr);
  // One bar per entry, labelled by `labels` ("rank 0", ...); empty clears the chart.
  void setBreakdowns(const QStringList& labels, const std::vector<GpuTimeBreakdown>& rows);
  QChart* chart() const { return chart_; }  // for tests: the sets hold what was set

 private:
  QChart* chart_;
  QChartView* view_;
};

}  // namespace slimpack::ui
