#pragma once
// What the trace view's layers (instant markers, counter tracks, flows) paint and hit-test with:
// the timeline, the rows of the shown snapshot, and the geometry of the last paint. A value made
// by TraceView::layerContext() for one paint or one mouse event; the layers keep none of it.
#include <vector>

#include "painter/gantt_layout.h"
#include "painter/gantt_palette.h"
#include "render/time_scale.h"
#include "render/trace_timeline.h"

namespace slimpack::ui {

struct TraceLayerContext {
  const TraceTimeline* timeline = nullptr;
  const std::vector<TraceRowInfo>* rows = nullptr;
  GanttLayout layout;
  TimeScale scale;
  GanttPalette palette;

  // Seconds on the view's axis of a time in the file's microseconds, and back.
  double seconds(double us) const { return (us - timeline->origin_us()) * 1e-6; }
  double us(double seconds) const { return seconds * 1e6 + timeline->origin_us(); }
  // The source lanes whose events a row shows at depth 0: its lane, or a folded group's lanes;
  // none for deeper rows and counter tracks.
  std::vector<std::int32_t> top_lanes(int row) const;
};

}  // namespace slimpack::ui
