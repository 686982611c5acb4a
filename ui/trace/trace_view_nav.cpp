// TraceView's navigation: the selected event (outline, finding its bar, bringing it into view) and
// the W/A/S/D keys. Kept apart from the view's painting and mouse handling.
#include <QContextMenuEvent>
#include <QCursor>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <algorithm>

#include "painter/gantt_layout.h"
#include "painter/gantt_palette.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

constexpr double kKeyZoom = 1.25;       // W / S: one press
constexpr double kPanFraction = 0.1;    // A / D: a tenth of the visible range
constexpr double kRevealPixels = 24.0;  // an event narrower than this is zoomed to this width

}  // namespace

void TraceView::selectEvent(TraceEventRef ref) {
  if (ref == selected_) return;
  selected_ = ref;
  links_.clear();
  if (timeline_ && timeline_->event(ref) && !ref.instant)
    links_ = flow_links(*timeline_->sources()[static_cast<std::size_t>(ref.source)].trace, ref.lane,
                        ref.index);
  update();
  emit eventSelected(ref);
}

BarRef TraceView::barOf(TraceEventRef ref) const {
  if (!timeline_ || !model() || !timeline_->event(ref)) return {};
  const std::int32_t id = timeline_->id_of(ref);
  if (id < 0) return {};
  const int depth = timeline_->depth(id);
  const std::vector<TraceRowInfo>& rows = rows_;
  int row = -1;
  for (std::size_t r = 0; r < rows.size() && row < 0; ++r) {
    const TraceRowInfo& i = rows[r];
    if (i.source != ref.source) continue;
    if ((i.lane == ref.lane && i.depth == depth) ||
        (i.lane < 0 && i.counter < 0 && depth == 0 &&
         i.group == timeline_->group_of(ref.source, ref.lane)))
      row = static_cast<int>(r);
  }
  if (row < 0 || row >= model()->lane_count()) return {};
  const auto& bars = model()->lane(row).bars;
  const double start = (timeline_->event(ref)->start_us - timeline_->origin_us()) * 1e-6;
  auto it = std::lower_bound(bars.begin(), bars.end(), start - 1e-9,
                             [](const GanttBar& b, double t) { return b.start < t; });
  for (; it != bars.end() && it->start <= start + 1e-9; ++it)
    if (it->pack == id) return {row, static_cast<std::int32_t>(it - bars.begin())};
  return {};
}

void TraceView::revealInstant(TraceEventRef ref) {
  selectEvent(ref);
  const double t = (timeline_->event(ref)->start_us - timeline_->origin_us()) * 1e-6;
  const TimeRange range = viewRange();
  if (t < range.t0 || t > range.t1) setViewRange(t - range.span() / 2, t + range.span() / 2);
  const TraceLayerContext layers = layerContext();
  const int row = TraceInstantLayer::rowOf(layers, ref);
  if (row >= 0)
    emit rowsToReveal(layers.layout.bar_band(row).top(), layers.layout.bar_band(row).bottom());
  update();
}

void TraceView::revealEvent(TraceEventRef ref) {
  if (!timeline_ || !timeline_->event(ref)) return;
  if (ref.instant) return revealInstant(ref);  // a marker: no bar, no group to unfold
  // A nested event of a folded group has no bar: unfold the group first.
  const std::int32_t id = timeline_->id_of(ref);
  const int group = timeline_->group_of(ref.source, ref.lane);
  if (id >= 0 && timeline_->depth(id) > 0 && collapsed_.count(group))
    setGroupCollapsed(group, false);
  selectEvent(ref);
  const BarRef bar = barOf(ref);
  if (!bar.valid()) return;
  const GanttBar& b = model()->bar(bar);
  const TimeRange range = viewRange();
  const double px = std::max(1, currentLayout().plot.width());
  // Centred when outside the visible range; zoomed in when thinner than two pixels (never out,
  // unless the event is longer than the range).
  double span = range.span();
  const bool thin = b.duration() > 0.0 && b.duration() * px / span < 2.0;
  if (thin) span = b.duration() * px / kRevealPixels;
  if (b.duration() > span) span = b.duration() * 1.2;
  if (thin || b.start < range.t0 || b.end > range.t1) {
    const double mid = 0.5 * (b.start + b.end);
    setViewRange(mid - span / 2, mid + span / 2);
  }
  const QRect band = currentLayout().bar_band(bar.lane);
  emit rowsToReveal(band.top(), band.bottom());
  update();
}

void TraceView::paintSelected(QPainter& p) {
  const BarRef bar = barOf(selected_);
  if (!bar.valid()) return;
  const GanttLayout l = currentLayout();
  const TimeScale scale = timeScale();
  const GanttBar& b = model()->bar(bar);
  const double x0 = std::clamp(scale.x_of(b.start), l.plot.left() - 3.0, l.plot.right() + 3.0);
  const double x1 =
      std::max(x0 + 3.0, std::clamp(scale.x_of(b.end), l.plot.left() - 3.0, l.plot.right() + 3.0));
  const QRect band = l.bar_band(bar.lane);
  p.save();
  p.setClipRect(l.plot);
  const GanttPalette pal = GanttPalette::make(paintOptions().theme);
  p.setPen(QPen(pal.text, 2));
  p.setBrush(Qt::NoBrush);
  p.drawRect(QRectF(x0 - 1, band.top() - 1, x1 - x0 + 2, band.height() + 2));
  // Flow arrows, as Perfetto draws them for the selected slice: from the flow's point in this
  // event to its point in the other one.
  const double origin = timeline_->origin_us();
  for (const TraceFlowLink& link : links_) {
    const BarRef to = barOf({selected_.source, link.lane, link.index});
    if (!to.valid()) continue;
    const QPointF here(scale.x_of((link.from_us - origin) * 1e-6), band.center().y());
    const QPointF there(scale.x_of((link.to_us - origin) * 1e-6), l.bar_band(to.lane).center().y());
    const QPointF from = link.outgoing ? here : there;
    const QPointF head = link.outgoing ? there : here;
    p.setPen(QPen(pal.text, 2));
    p.drawLine(from, head);
    const double dir = from.y() <= head.y() ? -1.0 : 1.0;  // the head points along the flow
    p.setBrush(pal.text);
    p.drawPolygon(QPolygonF({head, head + QPointF(-4, 7 * dir), head + QPointF(4, 7 * dir)}));
    p.setBrush(Qt::NoBrush);
  }
  p.restore();
}

TraceRowOptions TraceView::rowOptions() const {
  TraceRowOptions o;
  o.collapsed = collapsed_;
  o.filter = filter_;
  o.pinned = pinned_;
  o.pinned_lanes = pinned_lanes_;
  return o;
}

void TraceView::setAllCollapsed(bool collapsed) {
  if (!timeline_) return;
  const std::set<int> before = collapsed_;
  collapsed_.clear();
  if (collapsed)
    for (int g = 0; g < static_cast<int>(timeline_->groups().size()); ++g) collapsed_.insert(g);
  if (collapsed_ == before) return;
  rebuild();
  for (int g = 0; g < static_cast<int>(timeline_->groups().size()); ++g)
    if (before.count(g) != collapsed_.count(g)) emit groupToggled(g, collapsed);
}

void TraceView::setLaneFilter(const QString& text) {
  const std::string f = text.trimmed().toStdString();
  if (f == filter_) return;
  filter_ = f;
  rebuild();
}

void TraceView::setGroupPinned(int group, bool pinned) {
  const auto it = std::find(pinned_.begin(), pinned_.end(), group);
  if (pinned == (it != pinned_.end())) return;
  if (pinned)
    pinned_.push_back(group);
  else
    pinned_.erase(it);
  rebuild();
}

void TraceView::setLanePinned(int source, int lane, bool pinned) {
  const auto it = std::find(pinned_lanes_.begin(), pinned_lanes_.end(), std::pair(source, lane));
  if (pinned == (it != pinned_lanes_.end())) return;
  if (pinned)
    pinned_lanes_.emplace_back(source, lane);
  else
    pinned_lanes_.erase(it);
  rebuild();
}

void TraceView::contextMenuEvent(QContextMenuEvent* event) {
  if (!timeline_ || !model()) return GanttView::contextMenuEvent(event);
  const GanttLayout l = currentLayout();
  const int lane = l.labels.contains(event->pos()) ? l.lane_at(event->pos().y()) : -1;
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->setObjectName(QStringLiteral("traceTrackMenu"));
  if (lane >= 0 && lane < static_cast<int>(rows_.size())) {
    const TraceRowInfo row = rows_[static_cast<std::size_t>(lane)];
    if (row.lane >= 0) {
      // One thread or stream, as Perfetto pins a single track.
      const bool pinned = row.pinned_lane;
      menu->addAction(pinned ? tr("Unpin Lane") : tr("Pin Lane to Top"), this,
                      [this, row, pinned] { setLanePinned(row.source, row.lane, !pinned); });
    }
    const bool pinned = std::count(pinned_.begin(), pinned_.end(), row.group) > 0;
    menu->addAction(pinned ? tr("Unpin Group") : tr("Pin Group to Top"), this,
                    [this, g = row.group, pinned] { setGroupPinned(g, !pinned); });
    menu->addSeparator();
  }
  menu->addAction(tr("Collapse All"), this, [this] { setAllCollapsed(true); });
  menu->addAction(tr("Expand All"), this, [this] { setAllCollapsed(false); });
  menu->popup(event->globalPos());
  event->accept();
}

bool TraceView::navigationKey(QKeyEvent* event) {
  if (!model() || (event->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier))) return false;
  const TimeRange r = viewRange();
  const QPoint cursor = mapFromGlobal(QCursor::pos());
  const GanttLayout l = currentLayout();
  const double anchor =
      underMouse() && l.plot.contains(cursor) ? timeScale().t_of(cursor.x()) : 0.5 * (r.t0 + r.t1);
  switch (event->key()) {
    case Qt::Key_W:
      zoomBy(kKeyZoom, anchor);
      break;
    case Qt::Key_S:
      zoomBy(1.0 / kKeyZoom, anchor);
      break;
    case Qt::Key_A:
      setViewRange(r.t0 - kPanFraction * r.span(), r.t1 - kPanFraction * r.span());
      break;
    case Qt::Key_D:
      setViewRange(r.t0 + kPanFraction * r.span(), r.t1 + kPanFraction * r.span());
      break;
    default:
      return false;
  }
  event->accept();
  return true;
}

}  // namespace slimpack::ui
