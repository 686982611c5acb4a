#pragma once
// TraceView: the Gantt widget showing a trace timeline (render/trace_timeline.h). It is a
// GanttView (same painter, level of detail, zoom and pan, hover) that adds what traces need:
//  - click on a group's label (▾ / ▸) folds the group to one row of its top-level events, or
//    unfolds it; the visible time range stays;
//  - marked events (search results, a diff-table row) drawn over the bars in the highlight colour;
//  - Shift+drag selects a time range and shows its duration (Escape or Shift+click clears it);
//  - the tooltip names the event: name, category, start, duration, nesting depth, rank and lane,
//    and its args when the importer kept them.
#include <optional>
#include <set>
#include <vector>

#include "gantt/gantt_view.h"
#include "render/trace_timeline.h"

namespace slimpack::ui {

class TraceView : public GanttView {
  Q_OBJECT

 public:
  explicit TraceView(QWidget* parent = nullptr);

  // Shows `timeline` with every group expanded; `first` is its expanded snapshot when already
  // built (a loading job builds it off the GUI thread). Marks and the selection are cleared.
  void setTimeline(std::shared_ptr<const TraceTimeline> timeline,
                   std::shared_ptr<const GanttModel> first = nullptr);
  const std::shared_ptr<const TraceTimeline>& timeline() const { return timeline_; }

  const std::set<int>& collapsedGroups() const { return collapsed_; }
  void setGroupCollapsed(int group, bool collapsed);

  // Marked bars of the current model (sorted by lane, then bar), e.g. TraceTimeline::find_name.
  void setMarked(std::vector<BarRef> bars);
  const std::vector<BarRef>& marked() const { return marked_; }
  // Marks every event whose name passes `match(source, name index)` (kept across fold/unfold).
  // With `category` not empty only events of that category are marked.
  template <class Match>
  void markWhere(Match match, const std::string& category = {}) {
    mark_ = [match, category](const TraceTimeline& t, const GanttModel& m) {
      return t.select(m, match, category);
    };
    remark();
  }
  void clearMarks();

  // The selected time range (model time, seconds), if any.
  std::optional<TimeRange> selection() const { return selection_; }
  void setSelection(std::optional<TimeRange> range);

  // Tooltip text of a bar (HTML), empty when `ref` is no trace bar.
  QString tooltipFor(BarRef ref) const;

  // In a scroll area (TraceScrollArea): the view asks for the height that shows every lane at its
  // lane height, and the wheel over the lane labels scrolls instead of zooming.
  void setScrollable(bool on);
  // Height that shows every lane of the current model at the view's lane height (its fixed one,
  // else the smallest); 0 without a model.
  int heightForAllLanes() const;

 signals:
  void selectionChanged(double t0, double t1);  // t1 < t0 when cleared
  void groupToggled(int group, bool collapsed);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void rebuild();
  void remark();
  void fitMinimumHeight();
  int groupOfLabelAt(QPoint pos) const;

  std::shared_ptr<const TraceTimeline> timeline_;
  std::set<int> collapsed_;
  std::vector<BarRef> marked_;
  std::function<std::vector<BarRef>(const TraceTimeline&, const GanttModel&)> mark_;
  std::optional<TimeRange> selection_;
  std::optional<double> select_from_;
  bool scrollable_ = false;
};

// "1.234 ms" / "56.7 µs" for a duration in seconds.
QString trace_duration_text(double seconds);

}  // namespace slimpack::ui
