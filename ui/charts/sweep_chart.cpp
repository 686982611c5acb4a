#include "charts/sweep_chart.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "charts/chart_style.h"

namespace slimpack::ui {

SweepChart::SweepChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(chart_)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  styleChart(chart_, dark_);
  chart_->setTitle(tr("Slice size sweep (click a point to use that S)"));
}

void SweepChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  rebuild();
}

void SweepChart::setPoints(const std::vector<SweepPoint>& points) {
  points_ = points;
  rebuild();
}

void SweepChart::setCurrentSlice(Tokens s) {
  if (s == current_) return;
  current_ = s;
  rebuild();
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

void SweepChart::rebuild() {
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  if (points_.empty()) return;
  auto* time = new QLineSeries;
  time->setName(tr("iteration time (ms)"));
  auto* time_pts = new QScatterSeries;
  time_pts->setMarkerSize(9);
  auto* bubble = new QLineSeries;
  bubble->setName(tr("bubble (%)"));
  auto* bubble_pts = new QScatterSeries;
  bubble_pts->setMarkerSize(7);
  auto* current = new QScatterSeries;
  current->setName(tr("current S"));
  current->setMarkerSize(15);
  current->setColor(QColor(0x2f, 0x9e, 0x44));
  double tmin = 0, tmax = 0, bmin = 0, bmax = 0, smin = 0, smax = 0;
  for (const auto& p : points_) {
    if (!p.ok) continue;
    const double s = static_cast<double>(p.slice_size);
    const double ms = p.iteration_time * 1e3;
    time->append(s, ms);
    time_pts->append(s, ms);
    bubble->append(s, p.bubble_ratio * 100);
    bubble_pts->append(s, p.bubble_ratio * 100);
    if (p.slice_size == current_) current->append(s, ms);
    tmin = tmin == 0 ? ms : std::min(tmin, ms);
    tmax = std::max(tmax, ms);
    bmin = bmin == 0 ? p.bubble_ratio * 100 : std::min(bmin, p.bubble_ratio * 100);
    bmax = std::max(bmax, p.bubble_ratio * 100);
    smin = smin == 0 ? s : std::min(smin, s);
    smax = std::max(smax, s);
  }
  time_pts->setColor(QColor(0x4c, 0x9b, 0xe8));
  time->setColor(QColor(0x4c, 0x9b, 0xe8));
  bubble->setColor(QColor(0xe8, 0x88, 0x4c));
  bubble_pts->setColor(QColor(0xe8, 0x88, 0x4c));
  for (QAbstractSeries* s :
       {static_cast<QAbstractSeries*>(time), static_cast<QAbstractSeries*>(bubble),
        static_cast<QAbstractSeries*>(time_pts), static_cast<QAbstractSeries*>(bubble_pts),
        static_cast<QAbstractSeries*>(current)})
    chart_->addSeries(s);
  auto* x = new QLogValueAxis;
  x->setBase(2);
  x->setLabelFormat("%.0f");
  x->setTitleText(tr("slice size S (tokens)"));
  x->setRange(std::max(1.0, smin / 1.4), std::max(2.0, smax * 1.4));
  auto* yt = new QValueAxis;
  // Tight ranges: the differences between slice sizes are a few percent of the iteration time and
  // would be flat lines on a zero-based axis.
  const auto pad = [](double lo, double hi) {
    const double m = std::max((hi - lo) * 0.15, std::max(std::fabs(hi) * 0.01, 1e-6));
    return std::pair{std::max(0.0, lo - m), hi + m};
  };
  const auto [t_lo, t_hi] = pad(tmin, tmax);
  const auto [b_lo, b_hi] = pad(bmin, bmax);
  yt->setRange(t_lo, t_hi);
  yt->setTickCount(4);
  yt->setLabelFormat("%.0f");
  yt->setTitleText(tr("ms"));
  auto* yb = new QValueAxis;
  yb->setRange(b_lo, b_hi);
  yb->setTickCount(4);
  yb->setLabelFormat("%.1f");
  yb->setTitleText(tr("bubble %"));
  chart_->addAxis(x, Qt::AlignBottom);
  chart_->addAxis(yt, Qt::AlignLeft);
  chart_->addAxis(yb, Qt::AlignRight);
  for (QXYSeries* s : {static_cast<QXYSeries*>(time), static_cast<QXYSeries*>(time_pts),
                       static_cast<QXYSeries*>(current)}) {
    s->attachAxis(x);
    s->attachAxis(yt);
  }
  for (QXYSeries* s : {static_cast<QXYSeries*>(bubble), static_cast<QXYSeries*>(bubble_pts)}) {
    s->attachAxis(x);
    s->attachAxis(yb);
  }
  // Markers other than the two lines and the current S would clutter the legend.
  const auto markers = chart_->legend()->markers();
  for (QLegendMarker* m : markers)
    if (m->series() == time_pts || m->series() == bubble_pts) m->setVisible(false);
  auto pick = [this](const QPointF& p) {
    const int i = nearestPoint(points_, p.x());
    if (i >= 0) emit sliceSelected(points_[static_cast<std::size_t>(i)].slice_size);
  };
  for (QXYSeries* s : {static_cast<QXYSeries*>(time_pts), static_cast<QXYSeries*>(bubble_pts),
                       static_cast<QXYSeries*>(time), static_cast<QXYSeries*>(bubble)})
    connect(s, &QXYSeries::clicked, this, pick);
}

}  // namespace slimpack::ui
