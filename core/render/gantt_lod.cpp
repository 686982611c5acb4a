#include "render/gantt_lod.h"

#include <algorithm>
#include <cmath>

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
    if (!lane.fwd_time_prefix.empty()) {  // a plan lane: the rest are backward but the steps
      const auto steps = std::upper_bound(lane.step_bars.begin(), lane.step_bars.end(),
                                          static_cast<std::int32_t>(to_incl)) -
                         std::lower_bound(lane.step_bars.begin(), lane.step_bars.end(),
                                          static_cast<std::int32_t>(from));
      d.backward = d.count - d.forward - static_cast<std::int32_t>(steps);
    }
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

std::vector<FoldColumn> fold_density(const GanttModel& model, int lane_i, const DrawItem& item,
                                     const TimeScale& scale) {
  const GanttLane& lane = model.lane(lane_i);
  std::vector<FoldColumn> out;
  if (!item.folded() || lane.fwd_time_prefix.empty()) return out;
  const auto begin = static_cast<std::size_t>(item.first);
  const auto end = begin + static_cast<std::size_t>(item.count);
  const auto& bars = lane.bars;
  const int px0 = static_cast<int>(std::floor(item.x0));
  const int px1 = std::max(px0 + 1, static_cast<int>(std::ceil(item.x1)));
  out.resize(static_cast<std::size_t>(px1 - px0));
  std::size_t a = begin;
  // Work of the last bar of a column that runs on past its end, carried into the next columns.
  double carry_f = 0.0, carry_b = 0.0;
  for (int x = px0; x < px1; ++x) {
    const double c0 = scale.t_of(x), c1 = scale.t_of(x + 1);
    const double dt = c1 - c0;
    if (dt <= 0.0) break;
    double f = std::min(carry_f, dt), b = std::min(carry_b, dt - f);
    carry_f -= f;
    carry_b -= b;
    const auto b_end = static_cast<std::size_t>(
        std::lower_bound(bars.begin() + static_cast<std::ptrdiff_t>(a),
                         bars.begin() + static_cast<std::ptrdiff_t>(end), c1,
                         [](const GanttBar& bar, double t) { return bar.start < t; }) -
        bars.begin());
    if (b_end > a) {
      f += lane.fwd_time_prefix[b_end] - lane.fwd_time_prefix[a];
      b += lane.bwd_time_prefix[b_end] - lane.bwd_time_prefix[a];
      const GanttBar& last = bars[b_end - 1];
      const double spill = std::max(0.0, last.end - c1);
      if (last.kind == BarKind::Forward) {
        f -= spill;
        carry_f += spill;
      } else if (last.kind == BarKind::Backward) {
        b -= spill;
        carry_b += spill;
      }
      a = b_end;
    }
    FoldColumn& col = out[static_cast<std::size_t>(x - px0)];
    col.forward = static_cast<float>(std::clamp(f / dt, 0.0, 1.0));
    col.backward = static_cast<float>(std::clamp(b / dt, 0.0, 1.0 - col.forward));
  }
  return out;
}

std::vector<std::vector<DrawItem>> build_draw_lists(const GanttModel& model, const TimeScale& scale,
                                                    const LodOptions& options) {
  std::vector<std::vector<DrawItem>> lists(static_cast<std::size_t>(model.lane_count()));
  for (int l = 0; l < model.lane_count(); ++l)
    build_lane_draw_list(model, l, scale, lists[static_cast<std::size_t>(l)], options);
  return lists;
}

}  // namespace slimpack
