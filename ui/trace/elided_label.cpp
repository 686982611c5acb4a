#include "trace/elided_label.h"

#include <QPainter>
#include <algorithm>

namespace slimpack::ui {
namespace {

constexpr int kMinChars = 8;    // what the label asks for at least
constexpr int kHintChars = 40;  // and at most, however long its text

}  // namespace

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QSize ElidedLabel::minimumSizeHint() const {
  return {fontMetrics().averageCharWidth() * kMinChars, QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const {
  const QSize h = QLabel::sizeHint();
  return {std::min(h.width(), fontMetrics().averageCharWidth() * kHintChars), h.height()};
}

QString ElidedLabel::shownText() const {
  // contentsRect() leaves out the frame and margins, not a style sheet's padding: 4 px a side.
  const int room = std::max(0, contentsRect().width() - 8);
  return fontMetrics().elidedText(text(), Qt::ElideMiddle, room);
}

void ElidedLabel::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setPen(palette().color(foregroundRole()));
  p.drawText(contentsRect().adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, shownText());
}

}  // namespace slimpack::ui
