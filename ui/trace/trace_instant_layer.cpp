#include "trace/trace_instant_layer.h"

#include <QPainter>
#include <QPolygon>
#include <algorithm>
#include <cmath>
#include <tuple>

namespace slimpack::ui {
namespace {

bool ref_less(const TraceEventRef& a, const TraceEventRef& b) {
  return std::tie(a.source, a.lane, a.index) < std::tie(b.source, b.lane, b.index);
}

const std::vector<TraceEvent>& instants_of(const TraceTimeline& t, int source, int lane) {
  return t.sources()[static_cast<std::size_t>(source)]
      .trace->lanes[static_cast<std::size_t>(lane)]
      .instants;
}

// The instants of a lane with times in [t0_us, t1_us], as an index range.
std::pair<std::size_t, std::size_t> in_range(const std::vector<TraceEvent>& v, double t0_us,
                                             double t1_us) {
  const auto by_time = [](const TraceEvent& e, double t) { return e.start_us < t; };
  const auto first = std::lower_bound(v.begin(), v.end(), t0_us, by_time);
  const auto last = std::lower_bound(first, v.end(), std::nextafter(t1_us, 1e300), by_time);
  return {static_cast<std::size_t>(first - v.begin()), static_cast<std::size_t>(last - v.begin())};
}

QPolygon triangle(int x, int top) {
  using L = TraceInstantLayer;
  return QPolygon({QPoint(x - L::kHalfWidth, top), QPoint(x + L::kHalfWidth, top),
                   QPoint(x, top + L::kHeight)});
}

}  // namespace

std::vector<std::int32_t> TraceLayerContext::top_lanes(int row) const {
  if (row < 0 || row >= static_cast<int>(rows->size())) return {};
  const TraceRowInfo& r = (*rows)[static_cast<std::size_t>(row)];
  if (r.counter >= 0 || r.depth != 0) return {};
  if (r.lane >= 0) return {r.lane};
  return timeline->groups()[static_cast<std::size_t>(r.group)].lanes;
}

void TraceInstantLayer::setMarked(std::vector<TraceEventRef> refs) {
  std::sort(refs.begin(), refs.end(), ref_less);
  marked_ = std::move(refs);
}

bool TraceInstantLayer::isMarked(TraceEventRef ref) const {
  return std::binary_search(marked_.begin(), marked_.end(), ref, ref_less);
}

void TraceInstantLayer::paint(QPainter& p, const TraceLayerContext& c,
                              TraceEventRef selected) const {
  last_painted_ = 0;
  const GanttLayout& l = c.layout;
  // A marker half outside the plot still shows: look a marker's width beyond each side.
  const double pad = kHalfWidth * c.scale.time_per_px();
  const double t0 = c.us(c.scale.range().t0 - pad), t1 = c.us(c.scale.range().t1 + pad);
  p.save();
  p.setClipRect(l.plot);
  p.setRenderHint(QPainter::Antialiasing, false);
  const int rows = std::min(static_cast<int>(c.rows->size()), static_cast<int>(l.lane_top.size()));
  for (int r = 0; r < rows; ++r) {
    const int top = l.bar_band(r).top();
    if (top > l.plot.bottom() || top + kHeight < l.plot.top()) continue;
    const int source = (*c.rows)[static_cast<std::size_t>(r)].source;
    for (const std::int32_t lane : c.top_lanes(r)) {
      const auto& v = instants_of(*c.timeline, source, lane);
      const auto [first, last] = in_range(v, t0, t1);
      int last_x = -1000000;
      for (std::size_t i = first; i < last; ++i) {
        const TraceEventRef ref{source, lane, static_cast<std::int32_t>(i), true};
        const bool marked = !marked_.empty() && isMarked(ref);
        const bool is_selected = ref == selected;
        const int x = static_cast<int>(c.scale.x_of(c.seconds(v[i].start_us)));
        if (x - last_x < 2 && !marked && !is_selected) continue;  // one pixel, one marker
        last_x = x;
        ++last_painted_;
        p.setPen(marked ? c.palette.highlight_outline : c.palette.background);
        p.setBrush(marked ? c.palette.highlight : c.palette.text);
        p.drawPolygon(triangle(x, top));
        if (is_selected) {
          p.setPen(QPen(c.palette.text, 2));
          p.setBrush(Qt::NoBrush);
          p.drawRect(QRect(x - kHalfWidth - 2, top - 2, 2 * kHalfWidth + 4, kHeight + 4));
        }
      }
    }
  }
  p.restore();
}

TraceEventRef TraceInstantLayer::at(const TraceLayerContext& c, QPoint pos) const {
  const GanttLayout& l = c.layout;
  if (!l.plot.contains(pos)) return {};
  const int row = l.lane_at(pos.y());
  if (row < 0 || row >= static_cast<int>(c.rows->size())) return {};
  const int top = l.bar_band(row).top();
  if (pos.y() < top - 1 || pos.y() > top + kHeight + 1) return {};
  const int source = (*c.rows)[static_cast<std::size_t>(row)].source;
  const double t0 = c.us(c.scale.t_of(pos.x() - kHalfWidth - 1));
  const double t1 = c.us(c.scale.t_of(pos.x() + kHalfWidth + 1));
  const double t = c.us(c.scale.t_of(pos.x()));
  TraceEventRef best;
  double best_distance = 0.0;
  for (const std::int32_t lane : c.top_lanes(row)) {
    const auto& v = instants_of(*c.timeline, source, lane);
    const auto [first, last] = in_range(v, t0, t1);
    for (std::size_t i = first; i < last; ++i) {
      const double d = std::abs(v[i].start_us - t);
      if (!best.valid() || d < best_distance) {
        best = {source, lane, static_cast<std::int32_t>(i), true};
        best_distance = d;
      }
    }
  }
  return best;
}

int TraceInstantLayer::rowOf(const TraceLayerContext& c, TraceEventRef ref) {
  for (int r = 0; r < static_cast<int>(c.rows->size()); ++r) {
    if ((*c.rows)[static_cast<std::size_t>(r)].source != ref.source) continue;
    const auto lanes = c.top_lanes(r);
    if (std::find(lanes.begin(), lanes.end(), ref.lane) != lanes.end()) return r;
  }
  return -1;
}

}  // namespace slimpack::ui
