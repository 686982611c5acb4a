#include "window/presentation_mode.h"

#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <algorithm>
#include <limits>

#include "gantt/gantt_pane.h"
#include "gantt/gantt_view.h"
#include "window/saved_views.h"

namespace slimpack::ui {

namespace {
// How long a view's caption stays up after stepping to it.
constexpr int kCaptionMs = 2500;
}  // namespace

PresentationMode::PresentationMode(QMainWindow* window, GanttView* gantt, SavedViews& views,
                                   QObject* parent)
    : QObject(parent), window_(window), gantt_(gantt), views_(views) {
  caption_timer_.setSingleShot(true);
  caption_timer_.setInterval(kCaptionMs);
  connect(&caption_timer_, &QTimer::timeout, this, [this] {
    if (caption_) caption_->hide();
  });
  connect(&views_, &SavedViews::changed, this, [this] {
    if (current_ >= static_cast<int>(views_.views().size())) current_ = -1;
  });
}

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
  setChromeVisible(false);
  QFont big = saved_font_;
  big.setPointSizeF(std::max(14.0, saved_font_.pointSizeF() * 1.7));
  gantt_->setFont(big);
  saved_max_lane_height_ = gantt_->paintOptions().max_lane_height;
  gantt_->setMaxLaneHeight(std::numeric_limits<int>::max() / 4);  // rows fill the screen
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
  caption_timer_.stop();
  if (caption_) caption_->hide();
  gantt_->setFont(saved_font_);
  gantt_->setMaxLaneHeight(saved_max_lane_height_);
  window_->menuBar()->setVisible(saved_menu_visible_);
  window_->statusBar()->setVisible(saved_status_visible_);
  setChromeVisible(true);
  window_->restoreState(saved_state_);
  window_->setWindowState(saved_window_state_);
  emit activeChanged(false);  // the window re-applies its own theme to the Gantt
}

void PresentationMode::setChromeVisible(bool visible) {
  // The tab bar and the Gantt's scroll bar and "Zoomed:" line are for working, not for an
  // audience.
  if (auto* tabs = qobject_cast<QTabWidget*>(window_->centralWidget())) {
    if (!visible) saved_tabs_visible_ = tabs->tabBar()->isVisible();
    tabs->tabBar()->setVisible(visible && saved_tabs_visible_);
  }
  if (auto* pane = qobject_cast<GanttPane*>(gantt_->parentWidget()))
    pane->setChromeVisible(visible);
}

bool PresentationMode::showView(int index) {
  const std::vector<SavedView>& views = views_.views();
  if (views.empty()) return false;
  current_ = std::clamp(index, 0, static_cast<int>(views.size()) - 1);
  const SavedView& v = views[static_cast<std::size_t>(current_)];
  views_.apply(v);
  if (active_)
    showCaption(QStringLiteral("%1 / %2 · %3")
                    .arg(current_ + 1)
                    .arg(views.size())
                    .arg(QString::fromStdString(v.name)));
  return true;
}

QString PresentationMode::caption() const {
  return caption_ && caption_->isVisible() ? caption_->text() : QString();
}

void PresentationMode::showCaption(const QString& text) {
  if (!caption_) {
    caption_ = new QLabel(window_);
    caption_->setObjectName(QStringLiteral("presentation.caption"));
    caption_->setAttribute(Qt::WA_TransparentForMouseEvents);
    caption_->setStyleSheet(
        QStringLiteral("QLabel { background: rgba(0, 0, 0, 190); color: white; border-radius: 6px; "
                       "padding: 8px 16px; }"));
  }
  QFont f = gantt_->font();
  f.setBold(true);
  caption_->setFont(f);
  caption_->setText(text);
  caption_->adjustSize();
  // Bottom centre, clear of the time axis labels.
  caption_->move((window_->width() - caption_->width()) / 2,
                 window_->height() - caption_->height() - 3 * caption_->fontMetrics().height());
  caption_->raise();
  caption_->show();
  caption_timer_.start();
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
        if (showView(std::max(current_ - 1, 0))) return true;
        break;
      case Qt::Key_Home:
        if (showView(0)) return true;
        break;
      case Qt::Key_End:
        if (showView(static_cast<int>(views_.views().size()) - 1)) return true;
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
