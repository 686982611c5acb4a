#include "panels/state_frame.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
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
// Covers the content with a grey copy of it (QPainter has no saturation blend to grey what lies
// under a widget): opaque, so what the window shows under it cannot stay in colour, and
// transparent for the mouse, so tooltips still answer.
class Veil : public QWidget {
 public:
  static constexpr int kWashAlpha = 128;
  explicit Veil(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::NoFocus);
  }
  // `picture`: the content as it looks now; shown without its colours and washed halfway
  // towards the background, so that values drawn in the text colour read grey, not black (on the
  // dark theme: grey, not white).
  void setPicture(const QPixmap& picture) {
    QImage grey = picture.toImage()
                      .convertToFormat(QImage::Format_Grayscale8)
                      .convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QColor wash = palette().color(QPalette::Window);
    wash.setAlpha(kWashAlpha);
    QPainter p(&grey);
    p.fillRect(grey.rect(), wash);
    p.end();
    picture_ = QPixmap::fromImage(grey);
    update();
  }

 protected:
  void paintEvent(QPaintEvent* event) override {
    QPainter p(this);
    p.fillRect(event->rect(), palette().window());
    p.drawPixmap(0, 0, picture_);
  }

 private:
  QPixmap picture_;
};
}  // namespace

StateFrame::StateFrame(QWidget* content, QWidget* parent)
    : QWidget(parent),
      content_(content),
      banner_(new QLabel(this)),
      veil_(new Veil(this)),
      delay_(new QTimer(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(content_);
  veil_->setObjectName("state.veil");
  veil_->hide();
  content_->installEventFilter(this);
  banner_->setObjectName("state.banner");
  banner_->setWordWrap(true);
  banner_->setTextFormat(Qt::PlainText);
  banner_->hide();
  delay_->setSingleShot(true);
  delay_->setInterval(kComputingDelayMs);
  connect(delay_, &QTimer::timeout, this, [this] {
    if (state_ != State::Computing && state_ != State::Refreshing) return;
    showBanner();
    // The job took longer than a moment: the picture is the previous inputs' result.
    if (state_ == State::Computing) setGreyed(true);
  });
}

QString StateFrame::bannerText() const {
  return banner_->isVisibleTo(this) ? banner_->text() : QString();
}

void StateFrame::setState(State state, const QString& text) {
  const bool same = state == state_ && text == banner_->text();
  const bool tag = state == State::Computing || state == State::Refreshing;
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
    setBannerInline(!tag);
    if (tag) {
      // Already on screen (a drag goes on): keep it; else wait a moment before showing it.
      if (!banner_->isVisibleTo(this) && !delay_->isActive()) delay_->start();
      if (banner_->isVisibleTo(this)) placeBanner();
    } else {
      delay_->stop();
      showBanner();
    }
  }
  // Failed and stale views keep the previous picture, greyed. A computing one is greyed too once
  // its tag shows (a drag's picture is one edit old for a few milliseconds and stays in colour);
  // a refreshing one still describes the inputs and keeps its colours.
  setGreyed(greyedAtOnce(state) || (state == State::Computing && banner_->isVisibleTo(this)));
  if (!same) update();
}

void StateFrame::setGreyed(bool grey) {
  if (grey == greyed_) return;
  greyed_ = grey;
  veil_->setVisible(grey);
  if (grey) {
    regrey();
    veil_->raise();
  }
  banner_->raise();
}

void StateFrame::setBannerInline(bool on) {
  if (on == inline_) return;
  inline_ = on;
  auto* box = static_cast<QVBoxLayout*>(layout());
  if (on) {
    box->insertWidget(0, banner_);
  } else {
    box->removeWidget(banner_);
  }
}

void StateFrame::regrey() {
  veil_->setGeometry(content_->geometry());
  static_cast<Veil*>(veil_)->setPicture(content_->grab());
}

bool StateFrame::eventFilter(QObject* watched, QEvent* event) {
  // The content's own resize handler runs after this filter: the grey copy is taken once it ran.
  if (watched == content_ && greyed_ &&
      (event->type() == QEvent::Resize || event->type() == QEvent::Move)) {
    veil_->setGeometry(content_->geometry());
    QMetaObject::invokeMethod(
        this,
        [this] {
          if (greyed_) regrey();
        },
        Qt::QueuedConnection);
  }
  return QWidget::eventFilter(watched, event);
}

void StateFrame::showBanner() {
  placeBanner();
  banner_->show();
  banner_->raise();
}

void StateFrame::placeBanner() {
  if (inline_) return;  // a row of the layout
  // The computing tag: small, in the top right corner; the picture under it is about to be
  // replaced.
  const int margin = 8;
  const QSize hint = banner_->sizeHint();
  const int w = std::min(hint.width(), std::max(60, width() - 2 * margin));
  banner_->setGeometry(width() - margin - w, margin, w, hint.height());
}

void StateFrame::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (banner_->isVisibleTo(this)) placeBanner();
}

}  // namespace slimpack::ui
