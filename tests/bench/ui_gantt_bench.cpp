// Gantt paint time (target: 1920x1080 with 1M bars under 16 ms per frame, offscreen QImage).
// Frames are measured as the widget does them: a full frame rebuilds the draw lists for the
// visible range and paints the base layer; a hover frame paints the overlay only.
#include <benchmark/benchmark.h>

#include <QImage>
#include <QPainter>
#include <memory>

#include "../core/render/gantt_fixture.h"
#include "painter/gantt_painter.h"
#include "painter/gui_app.h"

namespace {

using namespace slimpack;

// 8 stages x 62500 packs x (F + B) = 1,000,000 bars.
const GanttModel& million_bars() {
  static const GanttModel model = [] {
    const auto pr = testing::synthetic_plan(8, 62500);
    return GanttModel::build(pr.plan, pr.result);
  }();
  return model;
}

TimeRange range_for(const GanttModel& m, double zoom) {
  const double span = m.time_extent().span() / zoom;
  const double mid = m.time_extent().span() / 2;
  return zoom <= 1.0 ? m.time_extent() : TimeRange{mid - span / 2, mid + span / 2};
}

// Arg 0: zoom factor (1 = whole iteration); Arg 1: memory strip on/off.
void BM_GanttFullFrame(benchmark::State& state) {
  const GanttModel& m = million_bars();
  GanttPaintOptions o;
  o.memory_strip = state.range(1) != 0;
  const GanttPainter gp(m, o);
  QImage image(1920, 1080, QImage::Format_RGB32);
  const GanttLayout layout = gp.layout(image.rect());
  const TimeRange range = range_for(m, static_cast<double>(state.range(0)));
  std::size_t items = 0;
  for (auto _ : state) {
    const GanttGeometry geo = gp.geometry(layout, range);
    QPainter p(&image);
    gp.paint_base(p, layout, geo);
    items = geo.item_count;
  }
  state.counters["bars"] = static_cast<double>(m.bar_count());
  state.counters["draw_items"] = static_cast<double>(items);
}
BENCHMARK(BM_GanttFullFrame)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({100, 0})
    ->Args({10000, 0})
    ->Unit(benchmark::kMillisecond);

// Hover: the cached base is blitted and the highlighted sequence and hovered bar are overlaid.
void BM_GanttHoverFrame(benchmark::State& state) {
  const GanttModel& m = million_bars();
  const GanttPainter gp(m, GanttPaintOptions{});
  QImage base(1920, 1080, QImage::Format_RGB32);
  QImage frame(1920, 1080, QImage::Format_RGB32);
  const GanttLayout layout = gp.layout(base.rect());
  const GanttGeometry geo = gp.geometry(layout, range_for(m, 100));
  {
    QPainter p(&base);
    gp.paint_base(p, layout, geo);
  }
  const auto [first, last] = m.visible(3, geo.scale.range().t0, geo.scale.range().t1);
  const BarRef hovered{3, static_cast<std::int32_t>((first + last) / 2)};
  const SeqIndex seq = m.pack_sequences(hovered).front();
  for (auto _ : state) {
    QPainter p(&frame);
    p.drawImage(0, 0, base);
    gp.paint_overlay(p, layout, geo, seq, hovered);
  }
}
BENCHMARK(BM_GanttHoverFrame)->Unit(benchmark::kMillisecond);

void BM_GanttModelBuild(benchmark::State& state) {
  const auto pr = testing::synthetic_plan(8, 62500);
  for (auto _ : state) benchmark::DoNotOptimize(GanttModel::build(pr.plan, pr.result));
}
BENCHMARK(BM_GanttModelBuild)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const auto app = slimpack::ensure_gui_app();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
