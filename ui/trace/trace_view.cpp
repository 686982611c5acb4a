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
  collapsed_.clear();
  pinned_.clear();
  marked_.clear();
  mark_ = nullptr;
  selected_ = {};
  links_.clear();
  if (selection_) setSelection(std::nullopt);
  if (!timeline_) {
    setModel(nullptr);
    fitMinimumHeight();
    return;
  }
  // The lane filter stays (a new run of the same job keeps the tracks asked for).
  if (!filter_.empty()) first = nullptr;
  setModel(first ? std::move(first)
                 : std::make_shared<const GanttModel>(timeline_->snapshot(rowOptions())));
  fitMinimumHeight();
}

void TraceView::rebuild() {
  if (!timeline_) return;
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
  setMarked({});
}

void TraceView::remark() {
  if (mark_ && timeline_ && model()) marked_ = mark_(*timeline_, *model());
  update();
}

void TraceView::setSelection(std::optional<TimeRange> range) {
  if (range && range->t1 < range->t0) std::swap(range->t0, range->t1);
  selection_ = range;
  update();
  if (selection_)
    emit selectionChanged(selection_->t0, selection_->t1);
  else
    emit selectionChanged(1.0, 0.0);
}

int TraceView::groupOfLabelAt(QPoint pos) const {
  if (!model() || !timeline_) return -1;
  const GanttLayout l = currentLayout();
  if (!l.labels.contains(pos)) return -1;
  const int lane = l.lane_at(pos.y());
  if (lane < 0) return -1;
  // Only a group's first row carries its name (and the ▾ / ▸ sign).
  if (lane > 0 && model()->lane(lane - 1).replica == model()->lane(lane).replica) return -1;
  return model()->lane(lane).replica;
}

QString TraceView::tooltipFor(BarRef ref) const {
  if (!timeline_ || !model()) return {};
  const TraceEvent* e = timeline_->event(*model(), ref);
  if (!e) return {};
  const TraceEventRef er = timeline_->locate(model()->bar(ref).pack);
  const TraceSource& src = timeline_->sources()[static_cast<std::size_t>(er.source)];
  const TraceLane& lane = src.trace->lanes[static_cast<std::size_t>(er.lane)];
  QString text = QStringLiteral("<b>%1</b>").arg(q(timeline_->name(er)).toHtmlEscaped());
  const std::string& cat = timeline_->category(er);
  if (!cat.empty()) text += QStringLiteral(" &middot; %1").arg(q(cat).toHtmlEscaped());
  text += QStringLiteral("<br>duration %1 &middot; start %2")
              .arg(q(format_time(e->dur_us * 1e-6, "s")),
                   q(format_time((e->start_us - timeline_->origin_us()) * 1e-6, "s")));
  const int depth = timeline_->depth(model()->bar(ref).pack);
  if (depth > 0) text += QStringLiteral(" &middot; depth %1").arg(depth);
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
  if (!marked_.empty() || selection_) paintMarks(p);
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
  if (selection_) {
    const double a =
        std::clamp(scale.x_of(selection_->t0), l.plot.left() - 1.0, l.plot.right() + 1.0);
    const double b =
        std::clamp(scale.x_of(selection_->t1), l.plot.left() - 1.0, l.plot.right() + 1.0);
    const QRect r(static_cast<int>(a), l.plot.top(), std::max(1, static_cast<int>(b - a)),
                  l.plot.height());
    QColor fill = pal.highlight;
    fill.setAlpha(50);
    p.fillRect(r, fill);
    p.fillRect(QRect(r.left(), r.top(), 1, r.height()), pal.highlight_outline);
    p.fillRect(QRect(r.right(), r.top(), 1, r.height()), pal.highlight_outline);
    const QString text = trace_duration_text(selection_->span());
    const QRect box(r.center().x() - fm.horizontalAdvance(text) / 2 - 4, l.plot.top() + 2,
                    fm.horizontalAdvance(text) + 8, fm.height() + 2);
    p.fillRect(box, pal.background);
    p.setPen(pal.text);
    p.drawText(box, Qt::AlignCenter, text);
  }
}

void TraceView::mousePressEvent(QMouseEvent* event) {
  const QPoint pos = event->position().toPoint();
  if (event->button() == Qt::LeftButton && model()) {
    if (const int g = groupOfLabelAt(pos); g >= 0) {
      setGroupCollapsed(g, collapsed_.count(g) == 0);
      event->accept();
      return;
    }
    if ((event->modifiers() & Qt::ShiftModifier) && currentLayout().plot.contains(pos)) {
      select_from_ = timeScale().t_of(pos.x());
      setSelection(TimeRange{*select_from_, *select_from_});
      event->accept();
      return;
    }
  }
  GanttView::mousePressEvent(event);
}

void TraceView::mouseMoveEvent(QMouseEvent* event) {
  if (select_from_ && (event->buttons() & Qt::LeftButton)) {
    const double t = timeScale().t_of(event->position().x());
    selection_ = TimeRange{std::min(*select_from_, t), std::max(*select_from_, t)};
    update();
    return;
  }
  GanttView::mouseMoveEvent(event);
}

void TraceView::mouseReleaseEvent(QMouseEvent* event) {
  if (select_from_ && event->button() == Qt::LeftButton) {
    select_from_.reset();
    if (selection_ && selection_->span() <= 0.0)
      setSelection(std::nullopt);
    else
      setSelection(selection_);
    return;
  }
  GanttView::mouseReleaseEvent(event);
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
    const QString text = tooltipFor(barAt(help->pos()));
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
