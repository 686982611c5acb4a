#include "trace/trace_scroll_area.h"

#include <QEvent>
#include <QScrollBar>

#include "trace/trace_view.h"

namespace slimpack::ui {

TraceScrollArea::TraceScrollArea(TraceView* view, QWidget* parent)
    : QScrollArea(parent), view_(view) {
  setObjectName(view->objectName().isEmpty() ? QStringLiteral("traceScroll")
                                             : view->objectName() + QStringLiteral("Scroll"));
  // Only an explicit hide() counts: a view never shown yet is "hidden" too.
  const bool hidden = view->isHidden() && view->testAttribute(Qt::WA_WState_ExplicitShowHide);
  setFrameShape(QFrame::NoFrame);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setWidgetResizable(true);
  view->setScrollable(true);
  setWidget(view);
  // setWidget() shows the view; keep what its owner asked for and follow it from now on.
  view->setHidden(hidden);
  setHidden(hidden);
  view->installEventFilter(this);
}

bool TraceScrollArea::eventFilter(QObject* watched, QEvent* event) {
  // ShowToParent / HideToParent arrive on explicit show() / hide() of the view, whether or not
  // this area is visible at the time.
  if (watched == view_ && event->type() == QEvent::ShowToParent) show();
  if (watched == view_ && event->type() == QEvent::HideToParent) hide();
  return QScrollArea::eventFilter(watched, event);
}

}  // namespace slimpack::ui
