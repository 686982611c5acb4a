// TraceView's area selection, as Perfetto's: Shift+drag over the lanes selects a time range on the
// lanes the drag crosses; a drag from the time axis selects the range on every lane. The details
// panel summarises the events of the area by name. Kept apart from the view's painting of bars.
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "painter/gantt_layout.h"
#include "painter/gantt_palette.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

// The row at or above `y`, clamped to the rows there are: a drag may end between two groups, or
// past the last lane.
int row_near(const GanttLayout& l, int y) {
  if (l.lane_top.empty()) return -1;
  const auto it = std::upper_bound(l.lane_top.begin(), l.lane_top.end(), y);
  return it == l.lane_top.begin() ? 0 : static_cast<int>(it - l.lane_top.begin()) - 1;
}

}  // namespace

std::vector<std::pair<int, int>> TraceView::lanesOfRows(int from, int to) const {
  std::vector<std::pair<int, int>> lanes;
  if (!timeline_ || rows_.empty()) return lanes;
  if (from > to) std::swap(from, to);
  from = std::max(from, 0);
  to = std::min(to, static_cast<int>(rows_.size()) - 1);
  auto add = [&](int source, int lane) {
    if (std::find(lanes.begin(), lanes.end(), std::pair(source, lane)) == lanes.end())
      lanes.emplace_back(source, lane);
  };
  for (int r = from; r <= to; ++r) {
    const TraceRowInfo& row = rows_[static_cast<std::size_t>(r)];
    if (row.counter >= 0) continue;  // a counter track holds no events
    if (row.lane >= 0) {
      add(row.source, row.lane);
      continue;
    }
    for (const std::int32_t l : timeline_->groups()[static_cast<std::size_t>(row.group)].lanes)
      add(row.source, l);
  }
  return lanes;
}

bool TraceView::rowSelected(int row) const {
  if (selection_lanes_.empty()) return true;
  if (row < 0 || row >= static_cast<int>(rows_.size())) return false;
  for (const auto& lane : lanesOfRows(row, row))
    if (std::find(selection_lanes_.begin(), selection_lanes_.end(), lane) != selection_lanes_.end())
      return true;
  return false;
}

void TraceView::setSelection(std::optional<TimeRange> range,
                             std::vector<std::pair<int, int>> lanes) {
  if (range && range->t1 < range->t0) std::swap(range->t0, range->t1);
  selection_ = range;
  selection_lanes_ = range ? std::move(lanes) : std::vector<std::pair<int, int>>{};
  update();
  if (selection_)
    emit selectionChanged(selection_->t0, selection_->t1);
  else
    emit selectionChanged(1.0, 0.0);
}

void TraceView::dragSelection(QPoint to) {
  const double t = timeScale().t_of(to.x());
  selection_ = TimeRange{std::min(*select_from_, t), std::max(*select_from_, t)};
  selection_lanes_ = select_row_from_ < 0
                         ? std::vector<std::pair<int, int>>{}
                         : lanesOfRows(select_row_from_, row_near(currentLayout(), to.y()));
  update();
}

void TraceView::mousePressEvent(QMouseEvent* event) {
  const QPoint pos = event->position().toPoint();
  if (event->button() == Qt::LeftButton && model()) {
    if (const int g = groupOfLabelAt(pos); g >= 0) {
      setGroupCollapsed(g, collapsed_.count(g) == 0);
      event->accept();
      return;
    }
    const GanttLayout l = currentLayout();
    const bool on_axis = paintOptions().axis && l.axis.contains(pos);
    if ((event->modifiers() & Qt::ShiftModifier) && (l.plot.contains(pos) || on_axis)) {
      select_from_ = timeScale().t_of(pos.x());
      select_row_from_ = on_axis ? -1 : row_near(l, pos.y());
      dragSelection(pos);
      event->accept();
      return;
    }
    // An instant event's marker sits over the bars: it takes the click.
    if (timeline_ && !(event->modifiers() & Qt::ShiftModifier))
      if (const TraceEventRef ref = instants_.at(layerContext(), pos); ref.valid()) {
        selectEvent(ref);
        event->accept();
        return;
      }
  }
  GanttView::mousePressEvent(event);
}

void TraceView::mouseMoveEvent(QMouseEvent* event) {
  if (select_from_ && (event->buttons() & Qt::LeftButton)) {
    dragSelection(event->position().toPoint());
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
      setSelection(selection_, selection_lanes_);
    return;
  }
  GanttView::mouseReleaseEvent(event);
}

void TraceView::paintSelection(QPainter& p) {
  const GanttLayout l = currentLayout();
  const TimeScale scale = timeScale();
  const GanttPalette pal = GanttPalette::make(paintOptions().theme);
  const QFontMetrics fm(font());
  p.save();
  p.setClipRect(l.plot);
  const double a =
      std::clamp(scale.x_of(selection_->t0), l.plot.left() - 1.0, l.plot.right() + 1.0);
  const double b =
      std::clamp(scale.x_of(selection_->t1), l.plot.left() - 1.0, l.plot.right() + 1.0);
  const int x = static_cast<int>(a);
  const int w = std::max(1, static_cast<int>(b - a));
  QColor fill = pal.highlight;
  fill.setAlpha(50);
  // The area's rows, each with its edges; the whole plot height when every lane is selected.
  int label_top = l.plot.top();
  bool first = true;
  const int rows = std::min(model()->lane_count(), static_cast<int>(l.lane_top.size()));
  for (int r = 0; r < (selection_lanes_.empty() ? 1 : rows); ++r) {
    if (!selection_lanes_.empty() && !rowSelected(r)) continue;
    const QRect band = selection_lanes_.empty()
                           ? QRect(x, l.plot.top(), w, l.plot.height())
                           : QRect(x, l.lane_top[static_cast<std::size_t>(r)], w, l.lane_height);
    if (first) label_top = std::max(l.plot.top(), band.top());
    first = false;
    p.fillRect(band, fill);
    p.fillRect(QRect(band.left(), band.top(), 1, band.height()), pal.highlight_outline);
    p.fillRect(QRect(band.right(), band.top(), 1, band.height()), pal.highlight_outline);
  }
  const QString text = trace_duration_text(selection_->span());
  const QRect box(x + w / 2 - fm.horizontalAdvance(text) / 2 - 4, label_top + 2,
                  fm.horizontalAdvance(text) + 8, fm.height() + 2);
  p.fillRect(box, pal.background);
  p.setPen(pal.text);
  p.drawText(box, Qt::AlignCenter, text);
  p.restore();
}

}  // namespace slimpack::ui
