#include "trace/timeline_stack.h"

#include <algorithm>

#include "render/trace_timeline.h"
#include "trace/trace_label_width.h"
#include "trace/trace_view.h"

namespace slimpack::ui {

TimelineStack::TimelineStack(QObject* parent)
    : QObject(parent), label_width_(new TraceLabelWidth({}, this)) {
  connect(label_width_, &TraceLabelWidth::widthChanged, this, [this](int px) {
    if (px <= 0) syncLabelWidths();  // back to automatic
  });
}

void TimelineStack::addView(GanttView* view, std::function<bool()> shown,
                            std::function<bool()> shares_range) {
  if (!shown) shown = [] { return true; };
  if (!shares_range) shares_range = shown;
  members_.push_back({view, std::move(shown), std::move(shares_range)});
  label_width_->addView(view);
  // One time axis: this view's zoom and pan moves the others (each follows only while it shares
  // the range; a view that already shows the range stops the echo).
  connect(view, &GanttView::viewChanged, this,
          [this, index = members_.size() - 1](double t0, double t1) { follow(index, t0, t1); });
  if (auto* timeline = qobject_cast<TraceView*>(view)) {
    timelines_.push_back(timeline);
    connect(timeline, &TraceView::selectionChanged, this, &TimelineStack::selectionChanged);
  }
}

void TimelineStack::follow(std::size_t from, double t0, double t1) {
  if (!members_[from].shares_range()) return;
  for (std::size_t i = 0; i < members_.size(); ++i)
    if (i != from && members_[i].shares_range()) members_[i].view->setViewRange(t0, t1);
}

void TimelineStack::syncLabelWidths() {
  if (label_width_->apply()) return;  // the width the user dragged to
  for (const Member& m : members_) m.view->setLabelWidth(0);
  const auto shown =
      std::count_if(members_.begin(), members_.end(), [](const Member& m) { return m.shown(); });
  if (shown < 2) return;
  int w = 0;
  for (const Member& m : members_)
    if (m.shown()) w = std::max(w, m.view->naturalLabelWidth());
  for (const Member& m : members_)
    if (m.shown()) m.view->setLabelWidth(w);
}

void TimelineStack::showOnOneAxis(GanttView* a, GanttView* b) {
  const TimeRange ea = a->model()->time_extent();
  const TimeRange eb = b->model()->time_extent();
  const double t0 = std::min(ea.t0, eb.t0);
  const double t1 = std::max(ea.t1, eb.t1);
  a->setViewRange(t0, t1 + (t1 - t0) * 0.01);
  b->setViewRange(t0, t1 + (t1 - t0) * 0.01);
}

void TimelineStack::setAllCollapsed(bool collapsed) {
  for (TraceView* v : timelines_) v->setAllCollapsed(collapsed);
}

void TimelineStack::setLaneFilter(const QString& text) {
  for (TraceView* v : timelines_) v->setLaneFilter(text);
}

void TimelineStack::setAllFlowsShown(bool on) {
  for (TraceView* v : timelines_) v->setAllFlowsShown(on);
}

std::vector<int> TimelineStack::markWhere(const NameMatch& match, const std::string& category,
                                          bool bars_only) {
  std::vector<int> marked;
  for (TraceView* v : timelines_) {
    if (!v->timeline() || !v->model()) {
      marked.push_back(0);
      continue;
    }
    // By value: the view keeps the rule to mark again when groups fold or unfold.
    const TraceTimeline* t = v->timeline().get();
    const auto by_name = [t, match](int source, int name) {
      return match(t->sources()[static_cast<std::size_t>(source)]
                       .trace->names[static_cast<std::size_t>(name)]);
    };
    v->markWhere(by_name, category);
    v->instants().setMarked(bars_only ? std::vector<TraceEventRef>{} : t->instants_where(by_name));
    v->update();
    marked.push_back(static_cast<int>(v->marked().size() + v->instants().marked().size()));
  }
  return marked;
}

void TimelineStack::markNone() {
  for (TraceView* v : timelines_) {
    v->clearMarks();
    v->update();
  }
}

}  // namespace slimpack::ui
