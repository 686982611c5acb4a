#pragma once
// The counter tracks of a trace view (TraceTimeline::counters(): a process's "C" series, a
// device's memory allocated from the "[memory]" events): in each track's row a step area, the
// value held from each point to the next (the last one to the end of the trace), scaled to the
// track's max, which is written at the row's right end. Points denser than a pixel draw the
// column's largest value, so a peak never vanishes when zoomed out. The tooltip over a track gives
// the value at the pointer's time.
#include <QPoint>
#include <QString>
#include <optional>

#include "trace/trace_layer_context.h"

class QPainter;

namespace slimpack::ui {

class TraceCounterPainter {
 public:
  static void paint(QPainter& p, const TraceLayerContext& c);
  // "GPU memory · allocated: 2.0 MiB at 1.5 ms" over a track's row; empty elsewhere.
  static QString tooltip(const TraceLayerContext& c, QPoint pos);
  // A value as the track reads: bytes for memory, else the number.
  static QString valueText(const TraceCounterView& track, double value);
  // The text written at a track's right end: "max 2.0 MiB".
  static QString maxText(const TraceCounterView& track);
  // The value in effect at `us` (the last point at or before it); nullopt before the first.
  static std::optional<double> valueAt(const TraceCounterView& track, double us);
};

}  // namespace slimpack::ui
