#pragma once
// A frame around a view of results (the Gantt, metrics, memory, sweep, comparison, search) that
// shows the view's Freshness (panels/freshness.h, the one staleness rule). Current: the content as
// is. Refreshing: a "computing" tag, the content in colour (it still describes the inputs).
// Computing: after a short delay (live slider drags do not flicker) the tag, and the content
// greyed: it is the previous inputs' result. Failed / Stale: a banner above the view with the
// reason, and the content greyed as "previous settings".
// The computing tag floats in a corner (a drag must not relayout the view); the failed and stale
// banners take their own row above the content, so they never hide the rows they speak of.
// Greying is an opaque veil over the content that shows a grey copy of it, not a graphics effect
// (under X11 an effect was not painted until the mouse passed over the view, and never over a
// chart): the veil is an ordinary widget, painted as soon as it is shown.
#include <QString>
#include <QWidget>

#include "panels/freshness.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTimer;
QT_END_NAMESPACE

namespace slimpack::ui {

class StateFrame : public QWidget {
  Q_OBJECT
 public:
  using State = Freshness;
  // How long a computation runs before the "computing" banner shows.
  static constexpr int kComputingDelayMs = 250;

  explicit StateFrame(QWidget* content, QWidget* parent = nullptr);

  // `text` is the banner's message (plain text); Current ignores it.
  void setState(State state, const QString& text = {});
  State state() const { return state_; }
  QString bannerText() const;
  QLabel* banner() const { return banner_; }
  QWidget* content() const { return content_; }
  QWidget* veil() const { return veil_; }
  // True while the content is drawn greyed ("previous settings"): its colours gone and its
  // text (black values included) turned grey.
  bool greyed() const { return greyed_; }
  // Takes the grey copy again: the content changed its look while greyed (e.g. the theme).
  void regrey();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showBanner();
  void placeBanner();
  void setBannerInline(bool on);
  void setGreyed(bool grey);

  QWidget* content_;
  QLabel* banner_;
  QWidget* veil_;
  QTimer* delay_;
  State state_ = State::Current;
  bool greyed_ = false;
  bool inline_ = false;
};

}  // namespace slimpack::ui
