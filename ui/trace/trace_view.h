#pragma once
// TraceView: the Gantt widget showing a trace timeline (render/trace_timeline.h). It is a
// GanttView (same painter, level of detail, zoom and pan, hover) that adds what traces need:
//  - click on a group's label (▾ / ▸) folds the group to one row of its top-level events, or
//    unfolds it; the visible time range stays;
//  - marked events (search results, a diff-table row) drawn over the bars in the highlight colour;
//  - Shift+drag selects an area: a time range over the lanes the drag crosses (from the time axis:
//    over every lane), and shows its duration (Escape or Shift+click clears it);
//  - click selects an event (outlined; eventSelected), revealEvent() brings one into view; arrows
//    join it to the events its flows lead to (a CPU launch and its GPU kernel);
//  - W / S zoom in / out around the mouse (else the centre), A / D pan, as in Perfetto;
//  - the tooltip names the event: name, category, start, duration, nesting depth, rank and lane,
//    and its args when the importer kept them;
//  - instant events are markers on their lane's top row (trace_instant_layer.h), selectable and
//    marked by the search like bars; counter tracks are rows of their own under each process's
//    lanes (trace_counter_painter.h); all flows of the visible range are drawn on request
//    (trace_flow_layer.h), else only the selected event's.
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "gantt/gantt_view.h"
#include "render/trace_timeline.h"
#include "trace/trace_flow_layer.h"
#include "trace/trace_instant_layer.h"
#include "trace/trace_layer_context.h"
#include "trace/trace_stats.h"

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
  // The track list: fold or unfold every group, show only the lanes whose title ("rank 1 ·
  // python3 / thread 7") contains a text (case-insensitive), pin groups to the top (also from the
  // context menu of a group's label).
  void setAllCollapsed(bool collapsed);
  void setLaneFilter(const QString& text);
  QString laneFilter() const { return QString::fromStdString(filter_); }
  void setGroupPinned(int group, bool pinned);
  const std::vector<int>& pinnedGroups() const { return pinned_; }
  // One lane (source, lane) pinned above every group (the context menu of its label).
  void setLanePinned(int source, int lane, bool pinned);
  const std::vector<std::pair<int, int>>& pinnedLanes() const { return pinned_lanes_; }
  TraceRowOptions rowOptions() const;
  // What each row of the current model shows (source lane, depth, group).
  const std::vector<TraceRowInfo>& rows() const { return rows_; }

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
  // Painted over the bars and under the marks (the Bubbles view's causes and critical path:
  // ui/trace/bubble_overlay.h); empty: nothing.
  void setOverlay(std::function<void(QPainter&)> paint);
  bool hasOverlay() const { return static_cast<bool>(overlay_); }

  // The selected time range (model time, seconds), if any, and the lanes (source, lane) of the
  // selected area; empty lanes: every lane.
  std::optional<TimeRange> selection() const { return selection_; }
  const std::vector<std::pair<int, int>>& selectionLanes() const { return selection_lanes_; }
  void setSelection(std::optional<TimeRange> range, std::vector<std::pair<int, int>> lanes = {});
  // The source lanes shown by rows [from, to] of the current model (a folded group's row: all
  // of its lanes), in row order.
  std::vector<std::pair<int, int>> lanesOfRows(int from, int to) const;

  // The selected event (clicked, or chosen in a list), outlined; invalid when none.
  TraceEventRef selectedEvent() const { return selected_; }
  // The flows of the selected event (a launch and its kernels), drawn as arrows between the bars.
  const std::vector<TraceFlowLink>& selectedLinks() const { return links_; }
  void selectEvent(TraceEventRef ref);
  // The bar showing an event in the current model (its group folded: the group's row, when the
  // event is top-level); invalid when the event has no bar there.
  BarRef barOf(TraceEventRef ref) const;
  // Selects the event and brings it into view: unfolds its group, centres it when it is outside
  // the visible time range (zooming in when it is narrower than a pixel), and asks the scroll
  // area for its row (rowsToReveal).
  void revealEvent(TraceEventRef ref);

  // Tooltip text of a bar (HTML), empty when `ref` is no trace bar.
  QString tooltipFor(BarRef ref) const;
  // The same for any event, an instant one too.
  QString eventTooltip(TraceEventRef ref) const;

  // The instant events' markers (the search marks its matches there) and the arrows of all flows
  // (off: only the selected event's).
  TraceInstantLayer& instants() { return instants_; }
  const TraceInstantLayer& instants() const { return instants_; }
  void setAllFlowsShown(bool on);
  bool allFlowsShown() const { return flows_.enabled(); }
  const TraceFlowLayer& flows() const { return flows_; }
  // The timeline, rows and geometry of the current paint, for the layers; needs a timeline.
  TraceLayerContext layerContext() const;

  // In a scroll area (TraceScrollArea): the view asks for the height that shows every lane at its
  // lane height, and the wheel over the lane labels scrolls instead of zooming.
  void setScrollable(bool on);
  // Height that shows every lane of the current model at the view's lane height (its fixed one,
  // else the smallest); 0 without a model.
  int heightForAllLanes() const;

 signals:
  void selectionChanged(double t0, double t1);  // t1 < t0 when cleared
  void groupToggled(int group, bool collapsed);
  void eventSelected(slimpack::TraceEventRef ref);  // invalid when cleared
  void rowsChanged();  // folded, unfolded, filtered or pinned: other events have bars
  // Widget y range the view wants shown (a scroll area scrolls it into view).
  void rowsToReveal(int top, int bottom);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void rebuild();
  void remark();
  void revealInstant(TraceEventRef ref);
  void fitMinimumHeight();
  int groupOfLabelAt(QPoint pos) const;
  bool navigationKey(QKeyEvent* event);  // W/A/S/D
  void paintMarks(QPainter& p);
  void paintSelected(QPainter& p);
  void paintSelection(QPainter& p);
  bool rowSelected(int row) const;
  // Where a Shift+drag started: its time and row (-1: on the time axis, every lane).
  void dragSelection(QPoint to);

  std::shared_ptr<const TraceTimeline> timeline_;
  std::set<int> collapsed_;
  std::vector<BarRef> marked_;
  std::function<std::vector<BarRef>(const TraceTimeline&, const GanttModel&)> mark_;
  std::function<void(QPainter&)> overlay_;
  std::optional<TimeRange> selection_;
  std::optional<double> select_from_;
  int select_row_from_ = -1;
  std::vector<std::pair<int, int>> selection_lanes_;
  std::vector<TraceRowInfo> rows_;
  bool scrollable_ = false;
  TraceEventRef selected_;
  std::vector<TraceFlowLink> links_;
  std::string filter_;
  std::vector<int> pinned_;
  std::vector<std::pair<int, int>> pinned_lanes_;
  TraceInstantLayer instants_;
  TraceFlowLayer flows_;
};

// "1.234 ms" / "56.7 µs" for a duration in seconds.
QString trace_duration_text(double seconds);

}  // namespace slimpack::ui
