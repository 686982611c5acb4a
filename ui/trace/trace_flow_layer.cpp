#include "trace/trace_flow_layer.h"

#include <QPainter>
#include <QPolygonF>
#include <algorithm>

namespace slimpack::ui {

void TraceFlowLayer::setTimeline(const TraceTimeline* timeline) {
  pairs_.clear();
  if (!timeline) return;
  for (const TraceSource& s : timeline->sources()) pairs_.push_back(flow_pairs(*s.trace));
}

std::int64_t TraceFlowLayer::flowCount() const {
  std::int64_t n = 0;
  for (const auto& p : pairs_) n += static_cast<std::int64_t>(p.size());
  return n;
}

void TraceFlowLayer::paint(QPainter& p, const TraceLayerContext& c,
                           const std::function<BarRef(TraceEventRef)>& bar_of) const {
  last_drawn_ = 0;
  if (!enabled_) return;
  const GanttLayout& l = c.layout;
  const double t0 = c.us(c.scale.range().t0), t1 = c.us(c.scale.range().t1);
  p.save();
  p.setClipRect(l.plot);
  QColor colour = c.palette.text;
  colour.setAlpha(150);
  p.setPen(QPen(colour, 1));
  p.setBrush(colour);
  const auto n_sources = std::min(pairs_.size(), c.timeline->sources().size());
  for (std::size_t s = 0; s < n_sources && last_drawn_ < kMaxArrows; ++s) {
    const ImportedTrace& trace = *c.timeline->sources()[s].trace;
    for (const TraceFlowPair& f : pairs_[s]) {
      if (last_drawn_ >= kMaxArrows) break;
      if (std::max(f.from_us, f.to_us) < t0 || std::min(f.from_us, f.to_us) > t1) continue;
      const auto end = [&](std::int32_t lane, double us) -> BarRef {
        const std::int32_t e = event_holding(trace.lanes[static_cast<std::size_t>(lane)], us);
        if (e < 0) return {};
        return bar_of({static_cast<std::int32_t>(s), lane, e});
      };
      const BarRef from = end(f.from_lane, f.from_us);
      const BarRef to = end(f.to_lane, f.to_us);
      if (!from.valid() || !to.valid()) continue;  // an end filtered out or folded away
      const QPointF a(c.scale.x_of(c.seconds(f.from_us)), l.bar_band(from.lane).center().y());
      const QPointF b(c.scale.x_of(c.seconds(f.to_us)), l.bar_band(to.lane).center().y());
      p.drawLine(a, b);
      const double dir = a.y() <= b.y() ? -1.0 : 1.0;  // the head points along the flow
      p.drawPolygon(QPolygonF({b, b + QPointF(-3, 5 * dir), b + QPointF(3, 5 * dir)}));
      ++last_drawn_;
    }
  }
  p.restore();
}

}  // namespace slimpack::ui
