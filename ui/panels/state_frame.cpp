#include "panels/state_frame.h"

#include <QGraphicsColorizeEffect>
#include <QLabel>
#include <QResizeEvent>
#include <QTimer>
#include <QVBoxLayout>

namespace slimpack::ui {
namespace {
// Readable on both themes: the banner carries its own background.
const char* kFailedStyle =
    "QLabel { background: #fbe3e3; color: #7a1010; border: 1px solid #d64545; "
    "border-radius: 3px; padding: 4px 8px; }";
const char* kStaleStyle =
    "QLabel { background: #fdf3d8; color: #5c4300; border: 1px solid #d9a400; "
    "border-radius: 3px; padding: 4px 8px; }";
const char* kComputingStyle =
    "QLabel { background: #e3eefb; color: #123a6b; border: 1px solid #4c8bd6; "
    "border-radius: 3px; padding: 4px 8px; }";
}  // namespace

StateFrame::StateFrame(QWidget* content, QWidget* parent)
    : QWidget(parent), content_(content), banner_(new QLabel(this)), delay_(new QTimer(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(content_);
  banner_->setObjectName("state.banner");
  banner_->setWordWrap(true);
  banner_->setTextFormat(Qt::PlainText);
  banner_->hide();
  delay_->setSingleShot(true);
  delay_->setInterval(kComputingDelayMs);
  connect(delay_, &QTimer::timeout, this, [this] {
    if (state_ == State::Computing) showBanner();
  });
}

QString StateFrame::bannerText() const {
  return banner_->isVisibleTo(this) ? banner_->text() : QString();
}

void StateFrame::setState(State state, const QString& text) {
  const bool same = state == state_ && text == banner_->text();
  state_ = state;
  if (state == State::Current) {
    delay_->stop();
    banner_->hide();
    banner_->clear();
  } else {
    banner_->setText(text);
    banner_->setStyleSheet(state == State::Failed  ? kFailedStyle
                           : state == State::Stale ? kStaleStyle
                                                   : kComputingStyle);
    if (state == State::Computing) {
      // Already on screen (a drag goes on): keep it; else wait a moment before showing it.
      if (!banner_->isVisibleTo(this) && !delay_->isActive()) delay_->start();
      if (banner_->isVisibleTo(this)) placeBanner();
    } else {
      delay_->stop();
      showBanner();
    }
  }
  // Failed and stale views keep the previous picture, greyed; computing keeps it as it is (the
  // picture is one edit old for a few milliseconds while a slider moves).
  const bool grey = state == State::Failed || state == State::Stale;
  if (grey != greyed_) {
    greyed_ = grey;
    if (grey) {
      auto* effect = new QGraphicsColorizeEffect;
      effect->setColor(QColor(0x80, 0x80, 0x80));
      effect->setStrength(0.9);
      content_->setGraphicsEffect(effect);  // the widget owns and deletes it
    } else {
      content_->setGraphicsEffect(nullptr);
    }
  }
  if (!same) update();
}

void StateFrame::showBanner() {
  placeBanner();
  banner_->show();
  banner_->raise();
}

void StateFrame::placeBanner() {
  const int margin = 8;
  if (state_ == State::Computing) {
    // A small tag in the top right corner: the picture under it is about to be replaced.
    const QSize hint = banner_->sizeHint();
    const int w = std::min(hint.width(), std::max(60, width() - 2 * margin));
    banner_->setGeometry(width() - margin - w, margin, w, hint.height());
    return;
  }
  const int w = std::max(120, width() - 2 * margin);
  const int h = std::min(banner_->heightForWidth(w), std::max(24, height() / 2));
  banner_->setGeometry(margin, margin, w, std::max(h, banner_->minimumSizeHint().height()));
}

void StateFrame::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (banner_->isVisibleTo(this)) placeBanner();
}

}  // namespace slimpack::ui
