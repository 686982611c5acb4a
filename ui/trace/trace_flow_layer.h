#pragma once
// All the flows of a trace view (View > Show All Flows, the bar's "All Flows"): an arrow for
// every flow (core/trace/trace_flow_pairs.h) with an end in the visible time range, from the
// event holding its start to the event holding its end, as Perfetto draws the flows of a whole
// area. Off by default: then only the selected event's flows are drawn (TraceView).
#include <functional>
#include <vector>

#include "trace/trace_flow_pairs.h"
#include "trace/trace_layer_context.h"

class QPainter;

namespace slimpack::ui {

class TraceFlowLayer {
 public:
  // At most this many arrows a paint (a zoomed-out view of a long trace stays readable).
  static constexpr int kMaxArrows = 2000;

  void setTimeline(const TraceTimeline* timeline);  // pairs the flows of every source
  void setEnabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  // The flows of the shown run (every source).
  std::int64_t flowCount() const;

  // Draws the arrows; `bar_of` finds the bar showing an event (TraceView::barOf).
  void paint(QPainter& p, const TraceLayerContext& c,
             const std::function<BarRef(TraceEventRef)>& bar_of) const;
  int lastDrawn() const { return last_drawn_; }

 private:
  bool enabled_ = false;
  std::vector<std::vector<TraceFlowPair>> pairs_;  // per source, by start time
  mutable int last_drawn_ = 0;
};

}  // namespace slimpack::ui
