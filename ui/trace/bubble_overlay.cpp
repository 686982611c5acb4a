#include "trace/bubble_overlay.h"

#include <QPainter>
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "painter/gantt_layout.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

using StageKey = std::pair<int, int>;  // replica, stage

// Per stage, the vertical bands (widget y, top and bottom) of the view's rows that show one of
// its unit-carrying lanes; consecutive rows make one band.
std::map<StageKey, std::vector<std::pair<int, int>>> stage_bands(const TracePipeline& result,
                                                                 const TraceView& view,
                                                                 const GanttLayout& layout) {
  std::map<std::pair<int, int>, StageKey> stage_of;  // (source, lane) -> stage
  for (const LaneActivity& l : result.lanes)
    if (l.units > 0 && l.stage >= 0)
      stage_of[{l.source, static_cast<int>(l.lane)}] = {l.replica, l.stage};
  std::map<StageKey, std::vector<std::pair<int, int>>> bands;
  const auto& rows = view.rows();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto it = stage_of.find({rows[r].source, rows[r].lane});
    if (it == stage_of.end()) continue;
    const QRect rect = layout.lane_rect(static_cast<int>(r));
    auto& list = bands[it->second];
    if (!list.empty() && list.back().second >= rect.top() - 1)
      list.back().second = rect.bottom();
    else
      list.emplace_back(rect.top(), rect.bottom());
  }
  return bands;
}

}  // namespace

QColor bubbleCauseColor(BubbleCause cause) {
  // Okabe and Ito's colour-blind-safe palette.
  switch (cause) {
    case BubbleCause::Dependency:
      return QColor(0xd5, 0x5e, 0x00);  // vermillion
    case BubbleCause::Transfer:
      return QColor(0x00, 0x72, 0xb2);  // blue
    case BubbleCause::Fill:
      return QColor(0x99, 0x99, 0x99);  // grey
    case BubbleCause::Other:
      return QColor(0xe6, 0x9f, 0x00);  // orange
  }
  return Qt::gray;
}

QColor criticalPathColor() {
  return QColor(0xa0, 0x00, 0x6e);
}

void BubbleOverlay::paint(QPainter& p, const TraceView& view) const {
  if (!result_ || !view.model() || !view.timeline()) return;
  const GanttLayout layout = view.currentLayout();
  const TimeScale scale = view.timeScale();
  const PipelineBubbles& m = result_->measured;
  // Analysis time (us from the first unit) -> view x.
  const double offset_s = (m.origin_us - view.timeline()->origin_us()) * 1e-6;
  auto x_of = [&](double us) { return scale.x_of(offset_s + us * 1e-6); };
  const auto bands = stage_bands(*result_, view, layout);
  p.save();
  p.setClipRect(layout.plot);
  for (const StageBubbles& s : m.stages) {
    const auto it = bands.find({s.replica, s.stage});
    if (it == bands.end()) continue;
    for (const IdleInterval& w : s.waits) {
      const double x0 = std::max(x_of(w.start_us), layout.plot.left() - 1.0);
      const double x1 = std::min(x_of(w.end_us), layout.plot.right() + 1.0);
      if (x1 < x0) continue;
      QColor c = bubbleCauseColor(w.cause);
      c.setAlpha(110);
      for (const auto& [top, bottom] : it->second)
        p.fillRect(QRectF(x0, top, std::max(1.0, x1 - x0), bottom - top + 1), c);
    }
  }
  // The critical path: its units outlined on their stage, its messages as lines between stages.
  QPen pen(criticalPathColor(), 2);
  p.setPen(pen);
  p.setBrush(Qt::NoBrush);
  for (const PathStep& step : m.critical_path) {
    const TimelineUnit& u = m.units[static_cast<std::size_t>(step.unit)];
    const auto to = bands.find({u.replica, u.id.stage});
    if (to == bands.end() || to->second.empty()) continue;
    if (!step.message) {
      for (const auto& [top, bottom] : to->second)
        p.drawRect(QRectF(x_of(step.start_us), top + 1, x_of(step.end_us) - x_of(step.start_us),
                          bottom - top - 1));
      continue;
    }
    const TimelineUnit& from = m.units[static_cast<std::size_t>(step.from)];
    const auto src = bands.find({from.replica, from.id.stage});
    if (src == bands.end() || src->second.empty()) continue;
    const double y0 = (src->second.front().first + src->second.front().second) / 2.0;
    const double y1 = (to->second.front().first + to->second.front().second) / 2.0;
    p.drawLine(QPointF(x_of(step.start_us), y0), QPointF(x_of(step.end_us), y1));
  }
  p.restore();
}

}  // namespace slimpack::ui
