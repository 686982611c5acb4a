#pragma once
// Colors of the Gantt for the light, dark and high-contrast (presentation) themes. Forward and
// backward packs use two color families (blue and orange) with two shades each, alternating by pack
// index so that neighbouring packs stay distinguishable without outlines. Folded runs are striped
// in the same two families (paint_fold), never a mixed third colour.
#include <QColor>

namespace slimpack {

enum class GanttTheme { Light, Dark, HighContrast };

struct GanttPalette {
  QColor background;
  QColor label_background;  // lane label column and header
  QColor text;
  QColor text_dim;
  QColor grid;
  QColor lane_separator;
  QColor forward[2];
  QColor backward[2];
  QColor bar_text;     // labels drawn on bars
  QColor sync;         // DP sync and optimizer bars
  QColor bubble_tint;  // idle time inside the makespan
  QColor highlight;    // forward bars of the highlighted sequence
  QColor highlight_outline;
  // Backward bars of the highlighted sequence: another colour, so that forward and backward
  // packing stay distinct when one sequence is looked at.
  QColor highlight_backward;
  QColor highlight_backward_outline;
  QColor hover_outline;
  QColor memory_fill;
  QColor memory_line;
  QColor metrics_background;
  // Trace timelines: events coloured by a hash of their name (same name, same colour in every
  // rank and run), folded runs of narrow events in one neutral colour.
  QColor trace[8];
  QColor trace_fold;
  QColor trace_text;  // event names on trace bars

  static GanttPalette make(GanttTheme theme);
};

}  // namespace slimpack
