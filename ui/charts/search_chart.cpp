#include "charts/search_chart.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/chart_style.h"
#include "models/format.h"

namespace slimpack::ui {

SearchChart::SearchChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(this, chart_)) {
  others_ = new QScatterSeries;
  others_->setName(tr("solved"));
  others_->setMarkerSize(6);
  front_ = new QScatterSeries;
  front_->setName(tr("Pareto front"));
  front_->setMarkerSize(10);
  chart_->addSeries(others_);
  chart_->addSeries(front_);
  gpus_axis_ = new QLogValueAxis;
  gpus_axis_->setBase(2);
  gpus_axis_->setLabelFormat("%.0f");
  gpus_axis_->setTitleText(tr("GPUs"));
  memory_axis_ = new QValueAxis;
  memory_axis_->setLabelFormat("%.0f");
  memory_axis_->setTitleText(tr("peak memory per GPU (GB)"));
  y_axis_ = new QValueAxis;
  y_axis_->setLabelFormat("%.0f");
  y_axis_->setTitleText(tr("tokens/s per GPU"));
  chart_->addAxis(gpus_axis_, Qt::AlignBottom);
  chart_->addAxis(memory_axis_, Qt::AlignBottom);
  chart_->addAxis(y_axis_, Qt::AlignLeft);
  for (QScatterSeries* s : {others_, front_}) {
    s->attachAxis(gpus_axis_);
    s->attachAxis(y_axis_);
    connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) {
      const int row = rowAt(p);
      if (row >= 0) emit configurationClicked(row);
    });
  }
  setPointTooltips(view_, [this](const QPoint& pos) { return toolTipAt(pos); });
  memory_axis_->setVisible(false);
  rebuild();
}

QString SearchChart::toolTipAt(const QPoint& pos) const {
  if (!result_) return {};
  int best = -1;
  double best_d = kPointHitPx * kPointHitPx;
  for (std::size_t i = 0; i < result_->rows.size(); ++i) {
    const SearchRow& row = result_->rows[i];
    if (row.status != SearchStatus::Solved) continue;
    const QPointF at = view_->mapFromScene(
        chart_->mapToPosition(QPointF(xOf(row), row.tokens_per_second_per_gpu), front_));
    const double dx = at.x() - pos.x(), dy = at.y() - pos.y();
    if (dx * dx + dy * dy <= best_d) best = static_cast<int>(i), best_d = dx * dx + dy * dy;
  }
  return rowText(best);
}

void SearchChart::setResult(std::shared_ptr<const SearchResult> result) {
  result_ = std::move(result);
  rebuild();
}

void SearchChart::setXAxis(XAxis axis) {
  if (axis == x_) return;
  x_ = axis;
  for (QScatterSeries* s : {others_, front_}) {
    s->detachAxis(x_ == XAxis::Gpus ? static_cast<QAbstractAxis*>(memory_axis_) : gpus_axis_);
    s->attachAxis(x_ == XAxis::Gpus ? static_cast<QAbstractAxis*>(gpus_axis_) : memory_axis_);
  }
  gpus_axis_->setVisible(x_ == XAxis::Gpus);
  memory_axis_->setVisible(x_ == XAxis::PeakMemory);
  rebuild();
}

void SearchChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  rebuild();
}

double SearchChart::xOf(const SearchRow& row) const {
  return x_ == XAxis::Gpus ? double(row.config.gpus()) : row.peak_memory_bytes / 1e9;
}

int SearchChart::rowAt(const QPointF& value) const {
  if (!result_) return -1;
  int best = -1;
  double best_d = 0.0;
  const double ymax = std::max(1.0, y_axis_->max());
  const double xspan = x_ == XAxis::Gpus ? 1.0 : std::max(1.0, memory_axis_->max());
  for (std::size_t i = 0; i < result_->rows.size(); ++i) {
    const SearchRow& row = result_->rows[i];
    if (row.status != SearchStatus::Solved) continue;
    const double dx = x_ == XAxis::Gpus ? std::log2(xOf(row)) - std::log2(std::max(1e-9, value.x()))
                                        : (xOf(row) - value.x()) / xspan;
    const double dy = (row.tokens_per_second_per_gpu - value.y()) / ymax;
    const double d = dx * dx + dy * dy;
    if (best < 0 || d < best_d) best = static_cast<int>(i), best_d = d;
  }
  return best;
}

QString SearchChart::rowText(int row) const {
  if (!result_ || row < 0 || row >= static_cast<int>(result_->rows.size())) return {};
  const SearchRow& r = result_->rows[static_cast<std::size_t>(row)];
  return tr("%1\n%2 per GPU, iteration %3 (p95 %4), peak %5 (means over the search's batches)\n"
            "Click to load this configuration")
      .arg(QString::fromStdString(config_label(r.config)), formatRate(r.tokens_per_second_per_gpu),
           formatTime(r.mean_iteration_time), formatTime(r.p95_iteration_time),
           formatBytes(r.peak_memory_bytes));
}

void SearchChart::rebuild() {
  QList<QPointF> others, front;
  double ymax = 1.0, xmin = 1e300, xmax = 0.0;
  if (result_) {
    std::vector<bool> on_front(result_->rows.size(), false);
    for (int f : result_->front) on_front[static_cast<std::size_t>(f)] = true;
    for (std::size_t i = 0; i < result_->rows.size(); ++i) {
      const SearchRow& row = result_->rows[i];
      if (row.status != SearchStatus::Solved) continue;
      const QPointF p(xOf(row), row.tokens_per_second_per_gpu);
      (on_front[i] ? front : others).append(p);
      ymax = std::max(ymax, p.y());
      xmin = std::min(xmin, p.x());
      xmax = std::max(xmax, p.x());
    }
  }
  others_->replace(others);
  front_->replace(front);
  others_->setColor(dark_ ? QColor(0x80, 0x80, 0x80) : QColor(0xb0, 0xb0, 0xb0));
  front_->setColor(QColor(0x1f, 0x4f, 0xb0));
  // An empty plot says why instead of showing bare axes.
  if (!result_)
    chart_->setTitle(tr("Press Search: every solved configuration appears here"));
  else if (front.isEmpty())
    chart_->setTitle(tr("No configuration fits: the table gives each one's binding limit"));
  else
    chart_->setTitle({});
  // Without points, whole-number ticks 0..5 (the labels print no decimals).
  const NiceAxis y = front.isEmpty() ? NiceAxis{5.0, 6} : nice_zero_based_axis(ymax * 1.05, 6);
  y_axis_->setRange(0.0, y.max);
  y_axis_->setTickCount(y.ticks);
  if (xmax <= 0.0) xmin = 1.0, xmax = 2.0;
  if (x_ == XAxis::Gpus) {
    gpus_axis_->setRange(std::max(0.5, xmin / 1.5), xmax * 1.5);
  } else {
    const NiceAxis x = nice_zero_based_axis(xmax * 1.05, 6);
    memory_axis_->setRange(0.0, x.max);
    memory_axis_->setTickCount(x.ticks);
  }
}

}  // namespace slimpack::ui
