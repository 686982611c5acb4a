#include "panels/flow_layout.h"

#include <QStyle>
#include <QWidget>
#include <algorithm>

namespace slimpack::ui {

FlowLayout::FlowLayout(QWidget* parent) : QLayout(parent) {
  setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) {
  items_.append(item);
}

QLayoutItem* FlowLayout::itemAt(int index) const {
  return index >= 0 && index < items_.size() ? items_.at(index) : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
  return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

int FlowLayout::heightForWidth(int width) const {
  return arrange(QRect(0, 0, width, 0), false);
}

// As wide as the widest item: narrower, one would be cut.
QSize FlowLayout::minimumSize() const {
  QSize size;
  for (const QLayoutItem* item : items_)
    if (!item->isEmpty()) size = size.expandedTo(item->minimumSize().expandedTo(item->sizeHint()));
  const QMargins m = contentsMargins();
  return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

// Every item on one row.
QSize FlowLayout::sizeHint() const {
  int width = 0;
  int height = 0;
  int shown = 0;
  for (const QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    width += item->sizeHint().width();
    height = std::max(height, item->sizeHint().height());
    ++shown;
  }
  const QMargins m = contentsMargins();
  return {width + std::max(0, shown - 1) * spacingX() + m.left() + m.right(),
          height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
  const QMargins m = contentsMargins();
  const QRect area = rect.marginsRemoved(m);
  int y = area.y();
  QList<QLayoutItem*> row;  // the items of the row being filled
  int row_width = 0;
  int row_height = 0;
  // Each item at its size hint, centred in its row's height (a tool button beside a push button).
  auto place_row = [&] {
    int x = area.x();
    for (QLayoutItem* item : row) {
      const QSize hint = item->sizeHint();
      if (apply) item->setGeometry(QRect(QPoint(x, y + (row_height - hint.height()) / 2), hint));
      x += hint.width() + spacingX();
    }
  };
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    const QSize hint = item->sizeHint();
    if (!row.isEmpty() && row_width + spacingX() + hint.width() > area.width()) {  // wrap
      place_row();
      y += row_height + spacingY();
      row.clear();
      row_width = row_height = 0;
    }
    row_width += (row.isEmpty() ? 0 : spacingX()) + hint.width();
    row_height = std::max(row_height, hint.height());
    row.append(item);
  }
  place_row();
  return y + row_height - rect.y() + m.bottom();
}

int FlowLayout::spacing(Qt::Orientation orientation) const {
  if (spacing() >= 0) return spacing();
  const QWidget* w = parentWidget();
  if (!w) return 6;
  const int metric =
      w->style()->pixelMetric(orientation == Qt::Horizontal ? QStyle::PM_LayoutHorizontalSpacing
                                                            : QStyle::PM_LayoutVerticalSpacing,
                              nullptr, w);
  if (metric >= 0) return metric;
  const int between = w->style()->layoutSpacing(QSizePolicy::PushButton, QSizePolicy::PushButton,
                                                orientation, nullptr, w);
  return between >= 0 ? between : 6;
}

}  // namespace slimpack::ui
