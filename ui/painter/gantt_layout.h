#pragma once
// Where each part of the Gantt goes inside a rectangle: header (title, legend), lane label column,
// plot area (lanes of bars), time axis and the metrics box. Integer pixels so that fillRect edges
// stay crisp; lanes are grouped per data-parallel replica with a gap between groups.
#include <QFontMetrics>
#include <QRect>
#include <vector>

#include "painter/gantt_options.h"
#include "render/gantt_model.h"

namespace slimpack {

struct GanttLayout {
  QRect area;     // everything
  QRect header;   // title (left) and legend (right); empty when neither is shown
  QRect labels;   // lane label column, same vertical extent as plot
  QRect plot;     // lanes; its x range is the time scale's pixel range
  QRect axis;     // tick labels under the plot
  QRect metrics;  // key metrics box; empty when off
  int lane_height = 0;
  int bar_inset = 0;  // top offset of a bar inside its lane row
  int bar_height = 0;
  int memory_height = 0;      // memory strip under the bars (0 when off)
  std::vector<int> lane_top;  // y of each lane row, ascending

  QRect lane_rect(int lane) const;  // the full row, plot columns only
  QRect bar_band(int lane) const;   // where bars of the lane are drawn
  QRect memory_band(int lane) const;
  // Lane under y, or -1 (group gaps and outside the plot). Binary search.
  int lane_at(int y) const;
};

// Label of a lane: "Stage 2", or "R1 · Stage 2" when there are several replicas.
QString lane_label(const GanttModel& model, int lane);

// Computes the layout; `fm` measures the base font (labels and axis).
GanttLayout compute_layout(const GanttModel& model, const QRect& area,
                           const GanttPaintOptions& options, const QFontMetrics& fm);

// The label column width that fits every lane label of `model` (for aligning stacked views).
int natural_label_width(const GanttModel& model, const QFontMetrics& fm);

}  // namespace slimpack
