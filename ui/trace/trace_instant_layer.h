#pragma once
// The instant events ("i": the profiler's "[memory]" allocations, "Iteration Start") of a trace
// view: a small triangle at each one's time on the top row of its lane (or its folded group's
// row), pointing down at the bars. Markers closer than two pixels fold into one; marked ones
// (search matches) take the highlight colour and are never folded away; the selected one is
// outlined. Hit-testing finds the marker nearest the pointer by binary search on the lane's
// instants (sorted by time).
#include <QPoint>
#include <vector>

#include "trace/trace_layer_context.h"

class QPainter;

namespace slimpack::ui {

class TraceInstantLayer {
 public:
  static constexpr int kHalfWidth = 4;  // the triangle: 9 px wide, 7 px tall
  static constexpr int kHeight = 7;

  // The search's matches among the instants (kept sorted for lookup).
  void setMarked(std::vector<TraceEventRef> refs);
  const std::vector<TraceEventRef>& marked() const { return marked_; }

  void paint(QPainter& p, const TraceLayerContext& c, TraceEventRef selected) const;
  // The instant whose marker is under `pos` (the nearest, within a few pixels); invalid if none.
  TraceEventRef at(const TraceLayerContext& c, QPoint pos) const;
  // The row drawing an instant's marker; -1 when none (its lane filtered out).
  static int rowOf(const TraceLayerContext& c, TraceEventRef ref);
  // Markers drawn by the last paint (folded ones not counted).
  int lastPainted() const { return last_painted_; }

 private:
  bool isMarked(TraceEventRef ref) const;

  std::vector<TraceEventRef> marked_;
  mutable int last_painted_ = 0;
};

}  // namespace slimpack::ui
