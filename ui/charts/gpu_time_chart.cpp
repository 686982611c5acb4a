#include "charts/gpu_time_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

#include "charts/chart_style.h"

namespace slimpack::ui {

GpuTimeChart::GpuTimeChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(this, chart_)) {}

void GpuTimeChart::setBreakdowns(const QStringList& labels,
                                 const std::vector<GpuTimeBreakdown>& rows) {
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  if (rows.empty()) return;
  // Milliseconds when a bar passes 10 ms, else microseconds.
  double top = 0.0;
  for (const GpuTimeBreakdown& b : rows) top = std::max(top, b.span_us);
  const bool ms = top >= 1e4;
  const double scale = ms ? 1e-3 : 1.0;
  struct Part {
    QString name;
    QColor color;
    double GpuTimeBreakdown::*value;
  };
  const Part parts[] = {
      {tr("computation"), QColor(0x4c, 0x9b, 0xe8), &GpuTimeBreakdown::computation_us},
      {tr("communication"), QColor(0xe8, 0x8c, 0x3c), &GpuTimeBreakdown::communication_us},
      {tr("memcpy"), QColor(0x5c, 0xb8, 0x5c), &GpuTimeBreakdown::memcpy_us},
      {tr("idle"), QColor(0xb0, 0xb0, 0xb0), &GpuTimeBreakdown::idle_us}};
  auto* series = new QStackedBarSeries;
  for (const Part& p : parts) {
    auto* set = new QBarSet(p.name);
    set->setColor(p.color);
    for (const GpuTimeBreakdown& b : rows) *set << b.*(p.value) * scale;
    series->append(set);
  }
  chart_->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(labels);
  auto* y = new QValueAxis;
  const NiceAxis nice = nice_zero_based_axis(top * scale * 1.05, 6);
  y->setRange(0.0, nice.max);
  y->setTickCount(nice.ticks);
  y->setLabelFormat("%.0f");
  y->setTitleText(ms ? tr("ms") : tr("µs"));
  chart_->addAxis(x, Qt::AlignBottom);
  chart_->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  chart_->legend()->setVisible(true);
}

}  // namespace slimpack::ui
