#pragma once
// Presentation mode: full screen, large fonts, high-contrast Gantt palette, every panel hidden;
// Left/Right (and PageUp/PageDown, what presenters' clickers send; Home/End for the first and
// last) step through the saved views, each shown with a short caption "2 / 5 · name"; Escape or
// F11 leaves and restores the window exactly as it was.
#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QTimer>

QT_BEGIN_NAMESPACE
class QLabel;
class QMainWindow;
QT_END_NAMESPACE

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class SavedViews;

class PresentationMode : public QObject {
  Q_OBJECT
 public:
  // Steps through `views` (window/saved_views.h), which shows each (tab, range, highlight).
  PresentationMode(QMainWindow* window, GanttView* gantt, SavedViews& views,
                   QObject* parent = nullptr);

  bool active() const { return active_; }
  int currentView() const { return current_; }
  // Shows saved view `index` (clamped); returns false when there are no saved views.
  bool showView(int index);
  // The caption of the current view while it is on screen, else empty (for tests).
  QString caption() const;

 public slots:
  void enter();
  void leave();
  void toggle() { active_ ? leave() : enter(); }

 signals:
  void activeChanged(bool active);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QMainWindow* window_;
  GanttView* gantt_;
  void showCaption(const QString& text);
  void setChromeVisible(bool visible);

  SavedViews& views_;
  QLabel* caption_ = nullptr;  // created on first use, a child of the window
  QTimer caption_timer_;
  int current_ = -1;
  bool active_ = false;
  QByteArray saved_state_;
  Qt::WindowStates saved_window_state_;
  QFont saved_font_;
  int saved_max_lane_height_ = 0;
  bool saved_menu_visible_ = true;
  bool saved_status_visible_ = true;
  bool saved_tabs_visible_ = true;
};

}  // namespace slimpack::ui
