#pragma once
// Presentation mode: full screen, large fonts, high-contrast Gantt palette, every panel hidden;
// Left/Right (and PageUp/PageDown, what presenters' clickers send) step through the saved views;
// Escape or F11 leaves and restores the window exactly as it was.
#include <QByteArray>
#include <QFont>
#include <QObject>
#include <functional>
#include <vector>

#include "window/session_file.h"

QT_BEGIN_NAMESPACE
class QMainWindow;
QT_END_NAMESPACE

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class PresentationMode : public QObject {
  Q_OBJECT
 public:
  PresentationMode(QMainWindow* window, GanttView* gantt, QObject* parent = nullptr);

  bool active() const { return active_; }
  void setViews(std::vector<SavedView> views) { views_ = std::move(views); }
  int currentView() const { return current_; }
  // Shows saved view `index` (clamped); returns false when there are no saved views.
  bool showView(int index);

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
  std::vector<SavedView> views_;
  int current_ = -1;
  bool active_ = false;
  QByteArray saved_state_;
  Qt::WindowStates saved_window_state_;
  QFont saved_font_;
  bool saved_menu_visible_ = true;
  bool saved_status_visible_ = true;
};

}  // namespace slimpack::ui
