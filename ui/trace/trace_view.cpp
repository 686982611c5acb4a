#include "trace/trace_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>

#include "painter/gantt_layout.h"
#include "painter/gantt_painter.h"
#include "painter/gantt_palette.h"
#include "render/time_axis.h"
#include "trace/trace_counter_painter.h"

namespace slimpack::ui {
namespace {

constexpr int kMaxArgsChars = 600;  // a tooltip stays a tooltip

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

QString trace_duration_text(double seconds) {
  return q(format_time(seconds, "s"));
}

TraceView::TraceView(QWidget* parent) : GanttView(parent) {
  // Trace rows are many and thin; the plan's legend (F/B colours) and bubble tint mean nothing
  // here.
  GanttPaintOptions o = paintOptions();
  o.legend = false;
  o.bubble_tint = false;
  o.memory_strip = false;
  o.max_lane_height = 26;
  o.min_lane_height = 12;
  o.lane_height = 20;
  setPaintOptions(o);
  connect(this, &GanttView::barClicked, this, [this](int lane, int bar) {
    if (timeline_ && model()) selectEvent(timeline_->locate(model()->bar(BarRef{lane, bar}).pack));
  });
}

void TraceView::setTimeline(std::shared_ptr<const TraceTimeline> timeline,
                            std::shared_ptr<const GanttModel> first) {
  timeline_ = std::move(timeline);
  instants_.setMarked({});
  flows_.setTimeline(timeline_.get());
  collapsed_.clear();
  pinned_.clear();
  pinned_lanes_.clear();
  marked_.clear();
  mark_ = nullptr;
  selected_ = {};
  links_.clear();
  if (selection_) setSelection(std::nullopt);
  rows_.clear();
  if (!timeline_) {
    setModel(nullptr);
    fitMinimumHeight();
    return;
  }
  rows_ = timeline_->rows_for(rowOptions());
  // The lane filter stays (a new run of the same job keeps the tracks asked for).
  if (!filter_.empty()) first = nullptr;
  setModel(first ? std::move(first)
                 : std::make_shared<const GanttModel>(timeline_->snapshot(rowOptions())));
  fitMinimumHeight();
}

void TraceView::rebuild() {
  if (!timeline_) return;
  rows_ = timeline_->rows_for(rowOptions());
  setModel(std::make_shared<const GanttModel>(timeline_->snapshot(rowOptions())), true);
  fitMinimumHeight();
  remark();
  emit rowsChanged();
}

void TraceView::setScrollable(bool on) {
  scrollable_ = on;
  fitMinimumHeight();
}

int TraceView::heightForAllLanes() const {
  if (!model() || model()->lane_count() == 0) return 0;
  // The layout at the view's fixed lane height (else the smallest) in a tall area puts the axis
  // and the metrics right under the lanes: the lowest of them is the height every lane needs.
  GanttPaintOptions o = paintOptions();
  if (o.lane_height <= 0) o.lane_height = o.min_lane_height;
  const QRect tall(0, 0, std::max(width(), 200), 1 << 20);
  const GanttLayout l = compute_layout(*model(), tall, o, QFontMetrics(font()));
  int bottom = l.plot.bottom();
  if (o.axis) bottom = std::max(bottom, l.axis.bottom());
  if (o.metrics) bottom = std::max(bottom, l.metrics.bottom());
  return bottom + 4;
}

void TraceView::fitMinimumHeight() {
  setMinimumHeight(scrollable_ ? heightForAllLanes() : 0);
}

void TraceView::resizeEvent(QResizeEvent* event) {
  GanttView::resizeEvent(event);
  // The header (title, legend) may wrap differently at another width.
  if (scrollable_) fitMinimumHeight();
}

void TraceView::wheelEvent(QWheelEvent* event) {
  // Over the lane labels the wheel scrolls the lanes (the scroll area gets the ignored event);
  // over the plot it zooms and pans as in every Gantt.
  if (scrollable_ && model() && currentLayout().labels.contains(event->position().toPoint()) &&
      !(event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier))) {
    event->ignore();
    return;
  }
  GanttView::wheelEvent(event);
}

void TraceView::setGroupCollapsed(int group, bool collapsed) {
  if (!timeline_ || group < 0 || group >= static_cast<int>(timeline_->groups().size())) return;
  if (collapsed == (collapsed_.count(group) > 0)) return;
  if (collapsed)
    collapsed_.insert(group);
  else
    collapsed_.erase(group);
  rebuild();
  emit groupToggled(group, collapsed);
}

void TraceView::setMarked(std::vector<BarRef> bars) {
  mark_ = nullptr;
  marked_ = std::move(bars);
  update();
}

void TraceView::clearMarks() {
  instants_.setMarked({});
  setMarked({});
}

void TraceView::setAllFlowsShown(bool on) {
  flows_.setEnabled(on);
  update();
}

TraceLayerContext TraceView::layerContext() const {
  TraceLayerContext c;
  c.timeline = timeline_.get();
  c.rows = &rows_;
  c.layout = currentLayout();
  c.scale = timeScale();
  c.palette = GanttPalette::make(paintOptions().theme);
  return c;
}

void TraceView::setOverlay(std::function<void(QPainter&)> paint) {
  overlay_ = std::move(paint);
  update();
}

void TraceView::remark() {
  if (mark_ && timeline_ && model()) marked_ = mark_(*timeline_, *model());
  update();
}

int TraceView::groupOfLabelAt(QPoint pos) const {
  if (!model() || !timeline_) return -1;
  const GanttLayout l = currentLayout();
  if (!l.labels.contains(pos)) return -1;
  const int lane = l.lane_at(pos.y());
  if (lane < 0 || lane >= static_cast<int>(rows_.size())) return -1;
  // Only a group's first row carries its name (and the ▾ / ▸ sign); a pinned lane is no group.
  const TraceRowInfo& row = rows_[static_cast<std::size_t>(lane)];
  if (row.pinned_lane) return -1;
  const TraceRowInfo* above = lane > 0 ? &rows_[static_cast<std::size_t>(lane - 1)] : nullptr;
  if (above && above->group == row.group && !above->pinned_lane) return -1;
  return row.group;
}

QString TraceView::tooltipFor(BarRef ref) const {
  if (!timeline_ || !model() || !timeline_->event(*model(), ref)) return {};
  return eventTooltip(timeline_->locate(model()->bar(ref).pack));
}

QString TraceView::eventTooltip(TraceEventRef er) const {
  const TraceEvent* e = timeline_ ? timeline_->event(er) : nullptr;
  if (!e) return {};
  const TraceSource& src = timeline_->sources()[static_cast<std::size_t>(er.source)];
  const TraceLane& lane = src.trace->lanes[static_cast<std::size_t>(er.lane)];
  QString text = QStringLiteral("<b>%1</b>").arg(q(timeline_->name(er)).toHtmlEscaped());
  const std::string& cat = timeline_->category(er);
  if (!cat.empty()) text += QStringLiteral(" &middot; %1").arg(q(cat).toHtmlEscaped());
  const QString start = q(format_time((e->start_us - timeline_->origin_us()) * 1e-6, "s"));
  if (er.instant) {
    text += QStringLiteral("<br>instant at %1").arg(start);
  } else {
    text += QStringLiteral("<br>duration %1 &middot; start %2")
                .arg(q(format_time(e->dur_us * 1e-6, "s")), start);
    const int depth = timeline_->depth(timeline_->id_of(er));
    if (depth > 0) text += QStringLiteral(" &middot; depth %1").arg(depth);
  }
  QString where = src.rank >= 0 ? QStringLiteral("rank %1 · ").arg(src.rank) : QString();
  where += lane.label.empty() ? QStringLiteral("pid %1 / tid %2").arg(q(lane.pid), q(lane.tid))
                              : q(lane.label);
  text += QStringLiteral("<br>%1").arg(where.toHtmlEscaped());
  const std::string& args = timeline_->args(er);
  if (!args.empty()) {
    QString a = q(args);
    if (a.size() > kMaxArgsChars) a = a.left(kMaxArgsChars) + QStringLiteral("…");
    text += QStringLiteral("<br><tt>%1</tt>").arg(a.toHtmlEscaped());
  } else if (src.trace && src.trace->args_dropped > 0) {
    text += QStringLiteral(
        "<br><i>args not kept: the trace's args text passed the import's "
        "memory budget</i>");
  }
  return text;
}

void TraceView::paintEvent(QPaintEvent* event) {
  GanttView::paintEvent(event);
  if (!model()) return;
  QPainter p(this);
  const TraceLayerContext layers = layerContext();
  if (timeline_) TraceCounterPainter::paint(p, layers);
  if (overlay_) overlay_(p);
  if (!marked_.empty()) paintMarks(p);
  if (timeline_) {
    flows_.paint(p, layers, [this](TraceEventRef ref) { return barOf(ref); });
    instants_.paint(p, layers, selected_);
  }
  if (selection_) paintSelection(p);
  paintSelected(p);
}

void TraceView::paintMarks(QPainter& p) {
  const GanttLayout l = currentLayout();
  const TimeScale scale = timeScale();
  const GanttPalette pal = GanttPalette::make(paintOptions().theme);
  p.setClipRect(l.plot);
  const TimeRange& range = scale.range();
  const QFontMetrics fm(font());
  p.setFont(font());
  // Marked bars, lane by lane: only those in the visible range, found by binary search.
  auto it = marked_.begin();
  for (int lane = 0; lane < model()->lane_count() && it != marked_.end(); ++lane) {
    const auto lane_begin =
        std::lower_bound(it, marked_.end(), BarRef{lane, 0}, [](const BarRef& a, const BarRef& b) {
          return a.lane != b.lane ? a.lane < b.lane : a.bar < b.bar;
        });
    const auto lane_end = std::lower_bound(
        lane_begin, marked_.end(), BarRef{lane + 1, 0}, [](const BarRef& a, const BarRef& b) {
          return a.lane != b.lane ? a.lane < b.lane : a.bar < b.bar;
        });
    it = lane_end;
    if (lane_begin == lane_end) continue;
    const auto [first, last] = model()->visible(lane, range.t0, range.t1);
    const QRect band = l.bar_band(lane);
    int last_x = -1;
    for (auto m = lane_begin; m != lane_end; ++m) {
      if (m->bar < static_cast<std::int32_t>(first) || m->bar >= static_cast<std::int32_t>(last))
        continue;
      const GanttBar& b = model()->bar(*m);
      const int x0 = static_cast<int>(
          std::clamp(scale.x_of(b.start), l.plot.left() - 2.0, l.plot.right() + 2.0));
      const int x1 =
          std::max(x0 + 2, static_cast<int>(std::clamp(scale.x_of(b.end), l.plot.left() - 2.0,
                                                       l.plot.right() + 2.0)));
      if (x1 <= last_x) continue;  // many marks in one pixel column: drawn once
      last_x = x1;
      const QRect r(x0, band.top(), x1 - x0, band.height());
      p.fillRect(r, pal.highlight_outline);
      if (r.width() >= 5 && r.height() >= 5) p.fillRect(r.adjusted(1, 1, -1, -1), pal.highlight);
      // The name stays readable on a marked bar wide enough for it.
      if (r.width() >= 24 && r.height() >= fm.ascent()) {
        p.setPen(pal.bar_text);
        p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(trace_bar_label(*model(), b), Qt::ElideRight, r.width() - 4));
      }
    }
  }
}

void TraceView::keyPressEvent(QKeyEvent* event) {
  if (navigationKey(event)) return;
  if (event->key() == Qt::Key_Escape && selection_) {
    setSelection(std::nullopt);
    event->accept();
    return;
  }
  GanttView::keyPressEvent(event);
}

bool TraceView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip && timeline_) {
    auto* help = static_cast<QHelpEvent*>(event);
    QString text;
    if (model()) {
      const TraceLayerContext layers = layerContext();
      text = eventTooltip(instants_.at(layers, help->pos()));
      if (text.isEmpty()) text = TraceCounterPainter::tooltip(layers, help->pos());
    }
    if (text.isEmpty()) text = tooltipFor(barAt(help->pos()));
    if (!text.isEmpty()) {
      QToolTip::showText(help->globalPos(), text, this);
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return GanttView::event(event);
}

}  // namespace slimpack::ui
