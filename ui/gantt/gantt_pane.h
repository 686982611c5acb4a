#pragma once
// The Gantt as the main window shows it: the GanttView over an overview row, a scroll bar that
// shows where the visible range sits in the whole iteration (drag it to pan) and a line that
// says whether the view shows the whole iteration or a zoomed part of it.
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QScrollBar;
QT_END_NAMESPACE

namespace slimpack {

class GanttView;

class GanttPane : public QWidget {
  Q_OBJECT
 public:
  // Scroll bar positions per iteration (the bar is integer-valued).
  static constexpr int kScrollSteps = 10000;

  explicit GanttPane(GanttView* view, QWidget* parent = nullptr);
  GanttView* view() const { return view_; }
  QScrollBar* scrollBar() const { return scroll_; }
  QLabel* zoomLabel() const { return zoom_; }
  // The scroll bar and the "Whole iteration" / "Zoomed:" line; presentation mode hides them.
  void setChromeVisible(bool visible);

 private:
  void sync();  // view range or model changed: move the bar, rewrite the line

  GanttView* view_;
  QScrollBar* scroll_;
  QLabel* zoom_;
  bool syncing_ = false;
};

}  // namespace slimpack
