#pragma once
// TraceScrollArea: scrolls one TraceView vertically when its lanes do not fit at the smallest lane
// height (two ranks of a real trace, deep stacks), as a track list does in Perfetto. The time axis
// stays the view's own: horizontal zoom and pan are unchanged. The area shows and hides with its
// view, so code that hides the view (a second trace not loaded) needs no change.
#include <QScrollArea>

namespace slimpack::ui {

class TraceView;

class TraceScrollArea : public QScrollArea {
  Q_OBJECT

 public:
  explicit TraceScrollArea(TraceView* view, QWidget* parent = nullptr);
  TraceView* view() const { return view_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  TraceView* view_;
};

}  // namespace slimpack::ui
