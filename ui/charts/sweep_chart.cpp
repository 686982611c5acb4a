#include "charts/sweep_chart.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/chart_style.h"
#include "models/format.h"

namespace slimpack::ui {

SweepChart::SweepChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(this, chart_)) {
  // No chart title (the dock names it; the panel says to click a point): the height goes to the
  // plot, and the legend sits on the right where the wide dock has room.
  chart_->legend()->setAlignment(Qt::AlignRight);
  buildSeries();
  applyColors();
  updateSeries();
}

void SweepChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  chart_->legend()->setAlignment(Qt::AlignRight);
  applyColors();
}

void SweepChart::setPoints(const std::vector<SweepPoint>& points) {
  points_ = points;
  updateSeries();
}

void SweepChart::setCurrentSlice(Tokens s) {
  if (s == current_) return;
  current_ = s;
  updateCurrent();
}

int SweepChart::nearestPoint(const std::vector<SweepPoint>& points, double s) {
  int best = -1;
  double best_d = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].ok || s <= 0) continue;
    // Distance on the log axis, where the points are evenly spread.
    const double d = std::fabs(std::log2(double(points[i].slice_size)) - std::log2(s));
    if (best < 0 || d < best_d) best = static_cast<int>(i), best_d = d;
  }
  return best;
}

void SweepChart::buildSeries() {
  time_ = new QLineSeries;
  time_->setName(tr("iteration time (ms)"));
  time_points_ = new QScatterSeries;
  time_points_->setMarkerSize(9);
  bubble_ = new QLineSeries;
  bubble_->setName(tr("bubble (%)"));
  bubble_points_ = new QScatterSeries;
  bubble_points_->setMarkerSize(7);
  current_point_ = new QScatterSeries;
  current_point_->setName(tr("current S"));
  current_point_->setMarkerSize(15);
  // S values that did not fit: red diamonds on the bottom of the plot (no time to plot).
  infeasible_ = new QScatterSeries;
  infeasible_->setName(tr("infeasible S"));
  infeasible_->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
  infeasible_->setMarkerSize(11);
  for (QXYSeries* s :
       {static_cast<QXYSeries*>(time_), static_cast<QXYSeries*>(bubble_),
        static_cast<QXYSeries*>(time_points_), static_cast<QXYSeries*>(bubble_points_),
        static_cast<QXYSeries*>(current_point_), static_cast<QXYSeries*>(infeasible_)})
    chart_->addSeries(s);
  x_axis_ = new QLogValueAxis;
  x_axis_->setBase(2);
  x_axis_->setLabelFormat("%.0f");
  x_axis_->setTitleText(tr("slice size S (tokens)"));
  time_axis_ = new QValueAxis;
  time_axis_->setTickCount(4);
  time_axis_->setLabelFormat("%.0f");
  time_axis_->setTitleText(tr("ms"));
  bubble_axis_ = new QValueAxis;
  bubble_axis_->setTickCount(4);
  bubble_axis_->setLabelFormat("%.1f");
  bubble_axis_->setTitleText(tr("bubble %"));
  chart_->addAxis(x_axis_, Qt::AlignBottom);
  chart_->addAxis(time_axis_, Qt::AlignLeft);
  chart_->addAxis(bubble_axis_, Qt::AlignRight);
  for (QXYSeries* s :
       {static_cast<QXYSeries*>(time_), static_cast<QXYSeries*>(time_points_),
        static_cast<QXYSeries*>(current_point_), static_cast<QXYSeries*>(infeasible_)}) {
    s->attachAxis(x_axis_);
    s->attachAxis(time_axis_);
  }
  for (QXYSeries* s : {static_cast<QXYSeries*>(bubble_), static_cast<QXYSeries*>(bubble_points_)}) {
    s->attachAxis(x_axis_);
    s->attachAxis(bubble_axis_);
  }
  // Markers other than the two lines and the current S would clutter the legend.
  const auto markers = chart_->legend()->markers();
  for (QLegendMarker* m : markers)
    if (m->series() == time_points_ || m->series() == bubble_points_) m->setVisible(false);
  auto pick = [this](const QPointF& p) {
    const int i = nearestPoint(points_, p.x());
    if (i >= 0) emit sliceSelected(points_[static_cast<std::size_t>(i)].slice_size);
  };
  for (QXYSeries* s :
       {static_cast<QXYSeries*>(time_points_), static_cast<QXYSeries*>(bubble_points_),
        static_cast<QXYSeries*>(time_), static_cast<QXYSeries*>(bubble_)})
    connect(s, &QXYSeries::clicked, this, pick);
  // Hovering a point says what it is, including why an infeasible S failed.
  // The current-S marker is drawn over its point, so it answers too.
  for (QScatterSeries* s : {time_points_, bubble_points_, current_point_, infeasible_})
    with_tooltips_.push_back(s);
  setPointTooltips(view_, [this](const QPoint& pos) { return toolTipAt(pos); });
}

QString SweepChart::toolTipAt(const QPoint& pos) const {
  double best_d = kPointHitPx * kPointHitPx;
  double best_s = 0.0;
  for (const QScatterSeries* s : with_tooltips_) {
    if (!s->isVisible()) continue;
    for (const QPointF& p : s->points()) {
      const QPointF at =
          view_->mapFromScene(chart_->mapToPosition(p, const_cast<QScatterSeries*>(s)));
      const double dx = at.x() - pos.x(), dy = at.y() - pos.y();
      if (dx * dx + dy * dy <= best_d) best_d = dx * dx + dy * dy, best_s = p.x();
    }
  }
  const int i = best_s > 0 ? pointAt(points_, best_s) : -1;
  return i >= 0 ? pointText(points_[static_cast<std::size_t>(i)]) : QString();
}

bool SweepChart::hasTooltip(const QScatterSeries* series) const {
  return std::find(with_tooltips_.begin(), with_tooltips_.end(), series) != with_tooltips_.end();
}

int SweepChart::pointAt(const std::vector<SweepPoint>& points, double s) {
  int best = -1;
  double best_d = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (s <= 0) break;
    const double d = std::fabs(std::log2(double(points[i].slice_size)) - std::log2(s));
    if (best < 0 || d < best_d) best = static_cast<int>(i), best_d = d;
  }
  return best;
}

QString SweepChart::pointText(const SweepPoint& p) {
  const QString s = formatTokens(double(p.slice_size));
  if (!p.ok) return tr("S = %1: infeasible\n%2").arg(s, readableMessage(p.error, 300));
  return tr("S = %1: iteration %2, bubble %3\nClick to use this S")
      .arg(s, formatTime(p.iteration_time), formatPercent(p.bubble_ratio));
}

void SweepChart::applyColors() {
  // The chart theme recolours series when it changes; the sweep's colours are fixed.
  time_->setColor(QColor(0x4c, 0x9b, 0xe8));
  time_points_->setColor(QColor(0x4c, 0x9b, 0xe8));
  bubble_->setColor(QColor(0xe8, 0x88, 0x4c));
  bubble_points_->setColor(QColor(0xe8, 0x88, 0x4c));
  current_point_->setColor(QColor(0x2f, 0x9e, 0x44));
  infeasible_->setColor(QColor(0xd6, 0x45, 0x45));
}

// The series and axes live as long as the chart; a new sweep replaces their points in place.
// Rebuilding them costs QtCharts several milliseconds of GUI-thread layout per update.
void SweepChart::updateSeries() {
  QList<QPointF> time, bubble;
  double tmin = 0, tmax = 0, bmin = 0, bmax = 0, smin = 0, smax = 0;
  for (const auto& p : points_) {
    if (!p.ok) continue;
    const double s = static_cast<double>(p.slice_size);
    const double ms = p.iteration_time * 1e3;
    time.append({s, ms});
    bubble.append({s, p.bubble_ratio * 100});
    tmin = tmin == 0 ? ms : std::min(tmin, ms);
    tmax = std::max(tmax, ms);
    bmin = bmin == 0 ? p.bubble_ratio * 100 : std::min(bmin, p.bubble_ratio * 100);
    bmax = std::max(bmax, p.bubble_ratio * 100);
    smin = smin == 0 ? s : std::min(smin, s);
    smax = std::max(smax, s);
  }
  time_->replace(time);
  time_points_->replace(time);
  bubble_->replace(bubble);
  bubble_points_->replace(bubble);
  updateCurrent();
  const bool any = !time.isEmpty();
  QList<QPointF> bad;
  for (QAbstractAxis* axis :
       {static_cast<QAbstractAxis*>(x_axis_), static_cast<QAbstractAxis*>(time_axis_),
        static_cast<QAbstractAxis*>(bubble_axis_)})
    axis->setVisible(any);
  if (!any) {
    infeasible_->replace(bad);
    return;
  }
  x_axis_->setRange(std::max(1.0, smin / 1.4), std::max(2.0, smax * 1.4));
  // Tight ranges: the differences between slice sizes are a few percent of the iteration time and
  // would be flat lines on a zero-based axis.
  const auto pad = [](double lo, double hi) {
    const double m = std::max((hi - lo) * 0.15, std::max(std::fabs(hi) * 0.01, 1e-6));
    return std::pair{std::max(0.0, lo - m), hi + m};
  };
  const auto [t_lo, t_hi] = pad(tmin, tmax);
  const auto [b_lo, b_hi] = pad(bmin, bmax);
  time_axis_->setRange(t_lo, t_hi);
  bubble_axis_->setRange(b_lo, b_hi);
  // Round tick values (9000, 9500, ...) rather than the padded extremes (8358, 9360, ...).
  time_axis_->applyNiceNumbers();
  bubble_axis_->applyNiceNumbers();
  for (const auto& p : points_)
    if (!p.ok) bad.append({static_cast<double>(p.slice_size), time_axis_->min()});
  if (!bad.isEmpty()) {
    // The x range must include them too.
    double lo = x_axis_->min(), hi = x_axis_->max();
    for (const QPointF& b : bad) lo = std::min(lo, b.x() / 1.4), hi = std::max(hi, b.x() * 1.4);
    x_axis_->setRange(lo, hi);
  }
  infeasible_->replace(bad);
}

void SweepChart::updateCurrent() {
  QList<QPointF> current;
  const SweepPoint* last = nullptr;  // the largest S swept (the longest sample)
  for (const auto& p : points_) {
    if (!last || p.slice_size > last->slice_size) last = &p;
    if (p.ok && p.slice_size == current_)
      current.append({static_cast<double>(p.slice_size), p.iteration_time * 1e3});
  }
  // An S at or past the longest sample slices nothing, as the last point does: marked there.
  if (current.isEmpty() && last && last->ok && current_ > last->slice_size)
    current.append({static_cast<double>(last->slice_size), last->iteration_time * 1e3});
  current_point_->replace(current);
}

}  // namespace slimpack::ui
