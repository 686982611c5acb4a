#pragma once
// The width of the lane-label column of the stacked timelines (run A, run B, the simulated
// Gantt), which share one plot origin: dragging the column's right edge in any of them sets it in
// all of them (the cursor turns to a splitter over the edge); a double-click on the edge returns
// to the automatic width (each view fits its labels, or the stack's common width:
// timeline_stack.h).
#include <QEvent>
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <vector>

class QMouseEvent;

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class TraceLabelWidth : public QObject {
  Q_OBJECT

 public:
  static constexpr int kGrip = 4;  // px either side of the edge that grab it
  static constexpr int kMin = 60;  // narrower, a label shows nothing
  explicit TraceLabelWidth(std::vector<GanttView*> views, QObject* parent = nullptr);
  // One more view whose column follows (and whose edge can be dragged).
  void addView(GanttView* view);

  // The width dragged to; 0: automatic.
  int width() const { return width_; }
  // Sets (0: clears) the width of every view's column, within [kMin, half the view's width].
  void setWidth(int px);
  // Applies a dragged width again (after the stack reset the views' widths); false when the
  // width is automatic.
  bool apply();

 signals:
  void widthChanged(int px);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool onEdge(const GanttView* view, QPoint pos) const;
  bool mouse(GanttView* view, QEvent::Type type, QMouseEvent* event);

  std::vector<QPointer<GanttView>> views_;
  QPointer<GanttView> dragging_;
  bool cursor_set_ = false;
  int width_ = 0;
};

}  // namespace slimpack::ui
