#include "trace/trace_counter_painter.h"

#include <QObject>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>

#include "common/format.h"

namespace slimpack::ui {
namespace {

const TraceCounterView* track_of(const TraceLayerContext& c, int row) {
  if (row < 0 || row >= static_cast<int>(c.rows->size())) return nullptr;
  const int k = (*c.rows)[static_cast<std::size_t>(row)].counter;
  return k >= 0 ? &c.timeline->counters()[static_cast<std::size_t>(k)] : nullptr;
}

// The first point in effect at `us`: the last one at or before it (else the first).
std::size_t first_in_effect(const std::vector<TraceCounterPoint>& v, double us) {
  const auto it = std::upper_bound(
      v.begin(), v.end(), us, [](double t, const TraceCounterPoint& p) { return t < p.ts_us; });
  return it == v.begin() ? 0 : static_cast<std::size_t>(it - v.begin()) - 1;
}

// Where the track's source ends: its last complete event's end (its first start plus the span
// the import measured), at least its last point. The last value holds until then, as Perfetto
// draws a counter to the end of the trace.
double end_us(const TraceLayerContext& c, const TraceCounterView& track) {
  const ImportedTrace& t = *c.timeline->sources()[static_cast<std::size_t>(track.source)].trace;
  double first = std::numeric_limits<double>::infinity();
  for (const TraceLane& lane : t.lanes)
    if (!lane.events.empty()) first = std::min(first, lane.events.front().start_us);
  const double last_point = track.points->empty() ? first : track.points->back().ts_us;
  return std::isfinite(first) ? std::max(last_point, first + t.span_us) : last_point;
}

void paint_track(QPainter& p, const TraceLayerContext& c, const TraceCounterView& track,
                 const QRect& row) {
  const auto& v = *track.points;
  const QRect area = row.adjusted(0, 2, 0, -1);
  // Values from 0 (or the lowest, when negative) to the max fill the row's height.
  double low = 0.0;
  for (const TraceCounterPoint& pt : v) low = std::min(low, pt.value);
  const double span = track.max - low;
  const auto height_of = [&](double value) {
    if (!(span > 0.0)) return value > low ? area.height() : 0;
    return static_cast<int>(std::lround((value - low) / span * area.height()));
  };
  QColor fill = c.palette.memory_fill;
  const int right = area.right() + 1;
  // Column by column: a column holding several points shows their largest value, the columns
  // up to the next point the last one's.
  int column = -1, column_max = 0, column_last = 0;
  const auto fill_run = [&](int x, int w, int h) {
    if (w > 0 && h > 0) p.fillRect(QRect(x, area.bottom() + 1 - h, w, h), fill);
  };
  const auto flush = [&](int to) {
    if (column < 0) return;
    fill_run(column, 1, column_max);
    fill_run(column + 1, to - column - 1, column_last);
  };
  const double t1 = c.us(c.scale.range().t1);
  for (std::size_t i = first_in_effect(v, c.us(c.scale.range().t0)); i < v.size(); ++i) {
    const int x =
        std::clamp(static_cast<int>(c.scale.x_of(c.seconds(v[i].ts_us))), area.left(), right);
    const int h = height_of(v[i].value);
    if (x == column) {
      column_max = std::max(column_max, h);
      column_last = h;
    } else {
      flush(x);
      column = x;
      column_max = column_last = h;
    }
    if (v[i].ts_us > t1) break;
  }
  const int end_x =
      std::clamp(static_cast<int>(c.scale.x_of(c.seconds(end_us(c, track)))), area.left(), right);
  flush(std::max(column + 1, end_x));
  p.setPen(c.palette.text_dim);
  const QString text = TraceCounterPainter::maxText(track);
  p.drawText(area.adjusted(0, -2, -4, 1), Qt::AlignRight | Qt::AlignVCenter, text);
}

}  // namespace

QString TraceCounterPainter::valueText(const TraceCounterView& track, double value) {
  if (track.memory) return QString::fromStdString(format_bytes(value));
  // Counters are mostly whole numbers (bytes, queue depths): written out, not as 2.09715e+06.
  if (value == std::round(value) && std::abs(value) < 1e15) return QString::number(value, 'f', 0);
  return QString::number(value, 'g', 6);
}

QString TraceCounterPainter::maxText(const TraceCounterView& track) {
  return QObject::tr("max %1").arg(valueText(track, track.max));
}

std::optional<double> TraceCounterPainter::valueAt(const TraceCounterView& track, double us) {
  const auto& v = *track.points;
  if (v.empty() || us < v.front().ts_us) return std::nullopt;
  return v[first_in_effect(v, us)].value;
}

void TraceCounterPainter::paint(QPainter& p, const TraceLayerContext& c) {
  if (c.timeline->counters().empty()) return;
  const GanttLayout& l = c.layout;
  p.save();
  p.setClipRect(l.plot);
  const int rows = std::min(static_cast<int>(c.rows->size()), static_cast<int>(l.lane_top.size()));
  for (int r = 0; r < rows; ++r)
    if (const TraceCounterView* track = track_of(c, r)) {
      const QRect row = l.lane_rect(r);
      if (row.bottom() < l.plot.top() || row.top() > l.plot.bottom()) continue;
      paint_track(p, c, *track, row);
    }
  p.restore();
}

QString TraceCounterPainter::tooltip(const TraceLayerContext& c, QPoint pos) {
  if (!c.layout.plot.contains(pos)) return {};
  const TraceCounterView* track = track_of(c, c.layout.lane_at(pos.y()));
  if (!track) return {};
  const double t = c.scale.t_of(pos.x());
  const auto value = valueAt(*track, c.us(t));
  const QString name = QString::fromStdString(track->label).toHtmlEscaped();
  const QString max = QObject::tr("max %1 at %2")
                          .arg(valueText(*track, track->max),
                               QString::fromStdString(format_time(c.seconds(track->max_us), "s")));
  if (!value) return QObject::tr("<b>%1</b><br>no value yet<br>%2").arg(name, max);
  return QObject::tr("<b>%1</b><br>%2 at %3<br>%4")
      .arg(name, valueText(*track, *value), QString::fromStdString(format_time(t, "s")), max);
}

}  // namespace slimpack::ui
