#pragma once
// TimelineStack: the timelines stacked in the Traces tab (run A, the simulated Gantt of measured
// vs simulated, run B) read as one picture: one x is one time in all of them. It owns what they
// share, so no pair of views is cross-connected by hand:
//  - the time range: zooming or panning one view moves every other view that shares the range
//    now (run B while two runs are compared, the simulated Gantt while the trace can be a run of
//    the plan); showOnOneAxis() puts two of them over the union of their extents;
//  - the lane-label column's width: one plot origin for every view shown, automatic (the widest
//    natural width) or dragged (TraceLabelWidth);
//  - what the track list does to every trace timeline at once (fold or unfold all groups, filter
//    lanes, draw all flows), and the selected time range of whichever timeline
//    (selectionChanged);
//  - what is marked: the search's matches and a diff row's events are marked by one rule
//    (markWhere), on every trace timeline at once, bars and instant events alike.
// A view joins with addView(); whether it takes part at a given moment is asked of it each time
// (run B is stacked only while it holds a run), so the stack never holds a stale copy of the
// workspace's state.
#include <QObject>
#include <QString>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class TraceLabelWidth;
class TraceView;

class TimelineStack : public QObject {
  Q_OBJECT

 public:
  explicit TimelineStack(QObject* parent = nullptr);

  // Adds `view` under the others. `shown`: whether it is stacked now (its label column shares the
  // width; empty: always). `shares_range`: whether its time range moves with the others now
  // (empty: whenever shown). A TraceView also joins timelines().
  void addView(GanttView* view, std::function<bool()> shown = {},
               std::function<bool()> shares_range = {});
  // The trace timelines, in stack order (run A, run B).
  const std::vector<TraceView*>& timelines() const { return timelines_; }

  // One plot origin for every view shown: the dragged width, else (two or more shown) the widest
  // natural width, else each view's own.
  void syncLabelWidths();
  // The lane-label column's width dragged wider or narrower (drag its edge in any view).
  TraceLabelWidth* labelWidth() const { return label_width_; }

  // Both views over the union of their extents, with 1% room at the end.
  static void showOnOneAxis(GanttView* a, GanttView* b);

  // The track list, on every trace timeline.
  void setAllCollapsed(bool collapsed);
  void setLaneFilter(const QString& text);
  void setAllFlowsShown(bool on);

  // Marks, on every trace timeline holding a run, the events whose name `match` accepts: bars
  // (of `category` only, when not empty) and, unless `bars_only`, instant events; anything
  // marked before is replaced. Kept across folding and unfolding groups. Returns how many each
  // timeline marked, in stack order (0 for one without a run). markNone() clears them all.
  using NameMatch = std::function<bool(const std::string& name)>;
  std::vector<int> markWhere(const NameMatch& match, const std::string& category = {},
                             bool bars_only = false);
  void markNone();

 signals:
  // The selected time range of any trace timeline changed (t1 < t0: cleared).
  void selectionChanged(double t0, double t1);

 private:
  struct Member {
    GanttView* view;
    std::function<bool()> shown;
    std::function<bool()> shares_range;
  };
  void follow(std::size_t from, double t0, double t1);  // the others take `from`'s range

  std::vector<Member> members_;
  std::vector<TraceView*> timelines_;
  TraceLabelWidth* label_width_;
};

}  // namespace slimpack::ui
