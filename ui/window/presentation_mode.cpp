#include "window/presentation_mode.h"

#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

#include "gantt/gantt_view.h"

namespace slimpack::ui {

PresentationMode::PresentationMode(QMainWindow* window, GanttView* gantt, QObject* parent)
    : QObject(parent), window_(window), gantt_(gantt) {}

void PresentationMode::enter() {
  if (active_) return;
  active_ = true;
  saved_state_ = window_->saveState();
  saved_window_state_ = window_->windowState();
  saved_font_ = gantt_->font();
  saved_menu_visible_ = window_->menuBar()->isVisible();
  saved_status_visible_ = window_->statusBar()->isVisible();
  for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) dock->hide();
  for (QToolBar* bar : window_->findChildren<QToolBar*>()) bar->hide();
  window_->menuBar()->hide();
  window_->statusBar()->hide();
  QFont big = saved_font_;
  big.setPointSizeF(std::max(14.0, saved_font_.pointSizeF() * 1.7));
  gantt_->setFont(big);
  gantt_->setTheme(GanttTheme::HighContrast);
  window_->showFullScreen();
  qApp->installEventFilter(this);
  gantt_->setFocus();
  emit activeChanged(true);
}

void PresentationMode::leave() {
  if (!active_) return;
  active_ = false;
  qApp->removeEventFilter(this);
  gantt_->setFont(saved_font_);
  window_->menuBar()->setVisible(saved_menu_visible_);
  window_->statusBar()->setVisible(saved_status_visible_);
  window_->restoreState(saved_state_);
  window_->setWindowState(saved_window_state_);
  emit activeChanged(false);  // the window re-applies its own theme to the Gantt
}

bool PresentationMode::showView(int index) {
  if (views_.empty()) return false;
  current_ = std::clamp(index, 0, static_cast<int>(views_.size()) - 1);
  const SavedView& v = views_[static_cast<std::size_t>(current_)];
  gantt_->setViewRange(v.t0, v.t1);
  return true;
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
  if (active_ && event->type() == QEvent::KeyPress) {
    const int key = static_cast<QKeyEvent*>(event)->key();
    switch (key) {
      case Qt::Key_Right:
      case Qt::Key_PageDown:
      case Qt::Key_Space:
        if (showView(current_ + 1)) return true;
        break;
      case Qt::Key_Left:
      case Qt::Key_PageUp:
        if (showView(current_ - 1)) return true;
        break;
      case Qt::Key_Escape:
      case Qt::Key_F11:
        leave();
        return true;
      default:
        break;
    }
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace slimpack::ui
