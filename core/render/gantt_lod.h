#pragma once
// Level of detail for the Gantt (Tracy's approach): draw lists are prepared before painting from
// a time->pixel scale. Bars at least `min_bar_px` wide are drawn one by one (never under 1 px);
// narrower bars separated by sub-pixel gaps are merged into one folded run that knows how many bars
// it covers and how many of them are forward and backward packs. Each step of a run jumps at least
// `min_gap_px` by binary search, so building a lane costs O(pixels * log n), not O(bars).
#include <cstdint>
#include <vector>

#include "render/gantt_model.h"
#include "render/time_scale.h"

namespace slimpack {

struct LodOptions {
  double min_bar_px = 3.0;  // narrower bars are candidates for folding
  double min_gap_px = 1.0;  // gaps (bubbles) at least this wide always stay visible
};

struct DrawItem {
  float x0 = 0.0f;  // pixels, clamped to a little outside the view; x1 - x0 >= 1
  float x1 = 0.0f;
  std::int32_t first = 0;     // first bar index in the lane
  std::int32_t count = 1;     // bars covered; 1 = a single bar
  std::int32_t forward = 0;   // forward bars among them
  std::int32_t backward = 0;  // backward bars among them (a DP sync or optimizer step is none)
  BarKind kind = BarKind::Forward;  // the bar's kind when count == 1
  bool folded() const { return count > 1; }
};

// Draw list of one lane for the visible range of `scale`. `out` is cleared first.
void build_lane_draw_list(const GanttModel& model, int lane, const TimeScale& scale,
                          std::vector<DrawItem>& out, const LodOptions& options = {});

// The density of a folded plan run, one entry per pixel column from floor(x0) to ceil(x1): the
// shares of the column's time spent in forward and in backward work (each in [0, 1], their sum at
// most 1; the rest is idle). At a whole view of thousands of packs a stage is one folded run; its
// columns still show the warm-up's forwards, the steady phase's mix, the cool-down's backwards
// and the bubbles narrower than a pixel. A bar is assigned to the columns it covers (the bars of a
// lane do not overlap). O(columns * log bars). Empty for a trace row or a single bar.
struct FoldColumn {
  float forward = 0.0f;
  float backward = 0.0f;
};
std::vector<FoldColumn> fold_density(const GanttModel& model, int lane, const DrawItem& item,
                                     const TimeScale& scale);

// Draw lists of every lane, indexed like GanttModel lanes.
std::vector<std::vector<DrawItem>> build_draw_lists(const GanttModel& model, const TimeScale& scale,
                                                    const LodOptions& options = {});

}  // namespace slimpack
