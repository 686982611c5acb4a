#include "charts/length_histogram_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QValueAxis>

#include "charts/chart_style.h"
#include "charts/histogram_bins.h"

namespace slimpack::ui {

LengthHistogramChart::LengthHistogramChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(this, chart_)) {
  chart_->legend()->hide();
  view_->setMinimumHeight(150);
  // No axis title: at the default window it cost the dock its last 15 pixels, and the dock then
  // cut the chart. The statistics line above names the batch; this names the axis.
  view_->setToolTip(
      tr("Sequences per length bin (log2 bins; each label is its bin's start, "
         "in tokens)"));
}

void LengthHistogramChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  chart_->legend()->hide();
  rebuild();  // the theme recoloured the bars
}

void LengthHistogramChart::setLengths(const std::vector<Tokens>& lengths) {
  // Live re-solves keep the batch: rebuilding an unchanged chart would cost QtCharts several
  // milliseconds of GUI-thread layout and a repaint on every slider step.
  if (built_ && lengths == lengths_) return;
  lengths_ = lengths;
  rebuild();
}

void LengthHistogramChart::rebuild() {
  built_ = true;
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  const auto bins = log2_bins(lengths_);
  auto* set = new QBarSet(tr("sequences"));
  set->setColor(QColor(0x4c, 0x9b, 0xe8));
  QStringList categories;
  qint64 top = 1;
  for (const auto& b : bins) {
    *set << static_cast<double>(b.count);
    categories << shortTokens(static_cast<double>(b.lo));
    top = std::max<qint64>(top, b.count);
  }
  auto* series = new QBarSeries;
  series->setBarWidth(0.9);
  series->append(set);
  chart_->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  auto* y = new QValueAxis;
  y->setRange(0, static_cast<double>(top) * 1.1);
  y->setLabelFormat("%d");
  y->setTickCount(4);
  chart_->addAxis(x, Qt::AlignBottom);
  chart_->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  QFont f = x->labelsFont();
  f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.8));
  x->setLabelsFont(f);
  x->setTruncateLabels(false);  // "128K" must stay readable; Qt would elide it to "…"
  x->setLabelsAngle(categories.size() > 8 ? -90 : 0);
  y->setLabelsFont(f);
}

}  // namespace slimpack::ui
