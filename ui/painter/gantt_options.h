#pragma once
// What the Gantt painter draws besides the bars. The widget keeps title/legend/metrics off; the
// exports turn them on.
#include <QFont>
#include <QString>

#include "painter/gantt_palette.h"
#include "plan/plan.h"

namespace slimpack {

struct GanttPaintOptions {
  GanttTheme theme = GanttTheme::Light;
  QFont font;                 // base font; the title uses a larger bold copy
  bool bubble_tint = true;    // tint idle time inside the makespan
  bool memory_strip = false;  // memory-over-time strip under each lane's bars
  bool bar_labels =
      true;  // "F3" / "B2" (1-based pack numbers, as F_1..F_M in docs/design.md) when they fit
  bool axis = true;
  bool legend = false;
  // The legend lists the highlighted sequence's colours (the widget: hovering can highlight any
  // time; an export: only when it draws a highlighted sequence).
  bool legend_sequence = true;
  bool metrics = false;  // key metrics box (iteration time, bubble, tokens/s, memory)
  QString title;         // empty = no title row
  int lane_height = 0;   // 0 = share the available height (clamped to [min, max])
  int min_lane_height = 8;
  int max_lane_height = 72;
  int label_width = 0;          // 0 = fit the widest lane label; compare views pass a common width
  double memory_cap_bytes = 0;  // drawn as a line in the memory strip when > 0
};

}  // namespace slimpack
