#include "trace/trace_label_width.h"

#include <QMouseEvent>
#include <algorithm>
#include <cstdlib>

#include "gantt/gantt_view.h"
#include "painter/gantt_layout.h"

namespace slimpack::ui {

TraceLabelWidth::TraceLabelWidth(std::vector<GanttView*> views, QObject* parent) : QObject(parent) {
  for (GanttView* v : views) addView(v);
}

void TraceLabelWidth::addView(GanttView* view) {
  views_.emplace_back(view);
  view->installEventFilter(this);
  view->setMouseTracking(true);  // the cursor changes over the edge without a button held
}

void TraceLabelWidth::setWidth(int px) {
  if (px > 0) {
    int widest = 0;
    for (const auto& v : views_)
      if (v && v->isVisible()) widest = std::max(widest, v->width());
    px = std::max(kMin, widest > 2 * kMin ? std::min(px, widest / 2) : px);
  }
  if (px == width_) return;
  width_ = std::max(0, px);
  for (const auto& v : views_)
    if (v) v->setLabelWidth(width_);
  emit widthChanged(width_);
}

bool TraceLabelWidth::apply() {
  if (width_ <= 0) return false;
  for (const auto& v : views_)
    if (v) v->setLabelWidth(width_);
  return true;
}

bool TraceLabelWidth::onEdge(const GanttView* view, QPoint pos) const {
  if (!view->model()) return false;
  const QRect labels = view->currentLayout().labels;
  return labels.isValid() && pos.y() >= labels.top() && pos.y() <= labels.bottom() &&
         std::abs(pos.x() - (labels.right() + 1)) <= kGrip;
}

bool TraceLabelWidth::mouse(GanttView* view, QEvent::Type type, QMouseEvent* event) {
  const QPoint pos = event->position().toPoint();
  if (type == QEvent::MouseButtonDblClick && event->button() == Qt::LeftButton &&
      onEdge(view, pos)) {
    setWidth(0);
    return true;
  }
  if (type == QEvent::MouseButtonPress && event->button() == Qt::LeftButton && onEdge(view, pos)) {
    dragging_ = view;
    return true;
  }
  if (type == QEvent::MouseMove && dragging_ == view) {
    setWidth(pos.x() - view->currentLayout().labels.left());
    return true;
  }
  if (type == QEvent::MouseButtonRelease && dragging_ == view &&
      event->button() == Qt::LeftButton) {
    dragging_ = nullptr;
    return true;
  }
  if (type == QEvent::MouseMove && !event->buttons()) {
    const bool edge = onEdge(view, pos);
    if (edge && !cursor_set_) view->setCursor(Qt::SplitHCursor);
    if (!edge && cursor_set_) view->unsetCursor();
    cursor_set_ = edge;
  }
  return false;
}

bool TraceLabelWidth::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type t = event->type();
  if (t == QEvent::MouseButtonPress || t == QEvent::MouseButtonRelease || t == QEvent::MouseMove ||
      t == QEvent::MouseButtonDblClick)
    for (const auto& v : views_)
      if (v == watched) return mouse(v, t, static_cast<QMouseEvent*>(event));
  return QObject::eventFilter(watched, event);
}

}  // namespace slimpack::ui
