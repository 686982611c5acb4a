#include "render/gantt_lod.h"

#include <algorithm>

namespace slimpack {
namespace {

// Keeps pixel coordinates of bars far outside the view finite and small (deep zoom).
float clamp_px(double x, const TimeScale& scale) {
  const double lo = scale.x0() - 2.0;
  const double hi = scale.x0() + scale.width() + 2.0;
  return static_cast<float>(std::clamp(x, lo, hi));
}

}  // namespace

void build_lane_draw_list(const GanttModel& model, int lane_i, const TimeScale& scale,
                          std::vector<DrawItem>& out, const LodOptions& options) {
  out.clear();
  const GanttLane& lane = model.lane(lane_i);
  const auto [first, last] = model.visible(lane_i, scale.range().t0, scale.range().t1);
  const double min_bar_t = options.min_bar_px * scale.time_per_px();
  const double min_gap_t = options.min_gap_px * scale.time_per_px();
  const auto& bars = lane.bars;
  const auto& max_end = lane.max_end;

  auto emit = [&](std::size_t from, std::size_t to_incl, double end_t) {
    DrawItem d;
    d.x0 = clamp_px(scale.x_of(bars[from].start), scale);
    d.x1 = clamp_px(scale.x_of(end_t), scale);
    if (d.x1 - d.x0 < 1.0f) d.x1 = d.x0 + 1.0f;
    d.first = static_cast<std::int32_t>(from);
    d.count = static_cast<std::int32_t>(to_incl - from + 1);
    d.forward = lane.fwd_prefix[to_incl + 1] - lane.fwd_prefix[from];
    d.kind = bars[from].kind;
    out.push_back(d);
  };

  std::size_t i = first;
  while (i < last) {
    if (bars[i].duration() >= min_bar_t) {
      emit(i, i, bars[i].end);
      ++i;
      continue;
    }
    // Fold: extend the run while the next bar is narrow and follows within a sub-pixel gap.
    std::size_t j = i;  // last bar in the run
    double run_end = max_end[i];
    while (j + 1 < last) {
      // Everything ending within min_gap of the run end is absorbed in one jump.
      const auto k = static_cast<std::size_t>(
          std::upper_bound(max_end.begin() + static_cast<std::ptrdiff_t>(j + 1),
                           max_end.begin() + static_cast<std::ptrdiff_t>(last),
                           run_end + min_gap_t) -
          max_end.begin());
      if (k > j + 1) {
        j = k - 1;
        run_end = max_end[j];
      }
      if (k >= last) break;
      const GanttBar& next = bars[k];
      if (next.start - run_end >= min_gap_t || next.duration() >= min_bar_t) break;
      j = k;
      run_end = max_end[k];
    }
    emit(i, j, run_end);
    i = j + 1;
  }
}

std::vector<std::vector<DrawItem>> build_draw_lists(const GanttModel& model, const TimeScale& scale,
                                                    const LodOptions& options) {
  std::vector<std::vector<DrawItem>> lists(static_cast<std::size_t>(model.lane_count()));
  for (int l = 0; l < model.lane_count(); ++l)
    build_lane_draw_list(model, l, scale, lists[static_cast<std::size_t>(l)], options);
  return lists;
}

}  // namespace slimpack
