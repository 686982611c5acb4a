#pragma once
// The Gantt painter: paints a GanttModel view onto any QPainter (widget, QImage, SVG, PDF) with
// fillRect and antialiasing off. Painting is split in three steps so the widget can cache:
//   layout(area)              -> GanttLayout   (depends on size and options)
//   geometry(layout, range)   -> GanttGeometry (draw lists and memory columns; per range and width)
//   paint_base / paint_overlay                 (overlay = highlighted sequence and hovered bar)
// Hover only repaints the overlay over the cached base; it never rebuilds geometry.
#include <QPainter>
#include <QRect>
#include <QString>
#include <vector>

#include "painter/gantt_chrome.h"
#include "painter/gantt_layout.h"
#include "painter/gantt_options.h"
#include "painter/gantt_palette.h"
#include "render/gantt_lod.h"
#include "render/gantt_model.h"
#include "render/time_scale.h"

namespace slimpack {

struct GanttGeometry {
  TimeScale scale;
  QRect plot;                                // the plot rect the geometry was built for
  std::vector<std::vector<DrawItem>> lanes;  // per lane, after level of detail
  std::vector<std::vector<float>> memory;    // per lane, per plot column: memory / scale max
  std::size_t item_count = 0;
};

// "F3" / "B2" (pack_name(): 1-based), "sync", "opt".
QString bar_label(const GanttBar& bar);
// The event name of a Trace bar of a trace timeline (empty for other bars).
QString trace_bar_label(const GanttModel& model, const GanttBar& bar);

// The label of a folded run that fits `width`: "706 packs (412 F · 294 B) · 3.21 s" (packs, passes,
// time span), else "706 packs · 3.21 s", else "×706"; empty when not even that fits. Packs are
// forward and backward bars only: a DP sync or optimizer step in the run is "+ 1 sync/opt", never
// a backward pack. A trace row's run counts events.
QString fold_label(const GanttModel& model, int lane, const DrawItem& item, const QFontMetrics& fm,
                   int width);

class GanttPainter {
 public:
  // The model must outlive the painter.
  GanttPainter(const GanttModel& model, GanttPaintOptions options);

  const GanttModel& model() const { return model_; }
  const GanttPaintOptions& options() const { return options_; }
  const GanttPalette& palette() const { return palette_; }

  GanttLayout layout(const QRect& area) const;
  GanttGeometry geometry(const GanttLayout& layout, TimeRange range) const;

  void paint_base(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo) const;
  // Bars of sequence `highlight` (-1 = none) and an outline around `hovered` (invalid = none).
  void paint_overlay(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo,
                     SeqIndex highlight, BarRef hovered) const;
  // Everything in one call (exports, tests, the benchmark).
  void paint(QPainter& p, const QRect& area, TimeRange range, SeqIndex highlight = -1) const;

  // What the legend lists for this picture: the passes the model has, bubbles when tinted and
  // present, folded runs when `geo` folds any, sync bars and the memory strip when drawn.
  LegendContent legend_content(const GanttLayout& layout, const GanttGeometry& geo) const;

  // The bar under a point (lane row and +-2 px horizontally), or an invalid ref.
  BarRef hit(const GanttLayout& layout, const GanttGeometry& geo, QPoint pos) const;
  // Pixel rect of a bar in its lane band, at least 1 px wide (clamped to the plot).
  QRect bar_rect(const GanttLayout& layout, const GanttGeometry& geo, BarRef ref) const;

 private:
  // Width of the header's left part where the widget names the highlighted sequence.
  int highlight_name_width() const;
  void paint_lane(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo, int lane) const;
  void paint_memory(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo,
                    int lane) const;

  const GanttModel& model_;
  GanttPaintOptions options_;
  GanttPalette palette_;
};

}  // namespace slimpack
