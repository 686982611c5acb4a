#pragma once
// A frame around a view of results (the Gantt, metrics, memory, sweep, comparison) that says
// whether the view shows the current settings. Current: the content as is. Computing: a banner
// ("computing...") after a short delay, so live slider drags do not flicker. Failed / Stale: a
// banner on the view itself with the reason, and the content greyed as "previous settings".
// The banner floats over the top of the content, so changing state never relayouts the view.
#include <QString>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTimer;
QT_END_NAMESPACE

namespace slimpack::ui {

class StateFrame : public QWidget {
  Q_OBJECT
 public:
  enum class State { Current, Computing, Failed, Stale };
  // How long a computation runs before the "computing" banner shows.
  static constexpr int kComputingDelayMs = 250;

  explicit StateFrame(QWidget* content, QWidget* parent = nullptr);

  // `text` is the banner's message (plain text); Current ignores it.
  void setState(State state, const QString& text = {});
  State state() const { return state_; }
  QString bannerText() const;
  QLabel* banner() const { return banner_; }
  QWidget* content() const { return content_; }
  // True while the content is drawn greyed ("previous settings").
  bool greyed() const { return greyed_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void showBanner();
  void placeBanner();

  QWidget* content_;
  QLabel* banner_;
  QTimer* delay_;
  State state_ = State::Current;
  bool greyed_ = false;
};

}  // namespace slimpack::ui
