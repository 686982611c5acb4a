#pragma once
#include <QFont>
// Everything around the bars: lane labels, time axis and grid, header with title and legend, and
// the key metrics box. Free functions so the single and the comparison exports share them.
#include <QPainter>
#include <QString>

#include "painter/gantt_layout.h"
#include "painter/gantt_options.h"
#include "painter/gantt_palette.h"
#include "render/gantt_lod.h"
#include "render/gantt_model.h"
#include "render/time_scale.h"

namespace slimpack {

void paint_lane_labels(QPainter& p, const GanttModel& model, const GanttLayout& layout,
                       const GanttPalette& palette);
// Vertical grid lines through the plot (drawn under the bars).
void paint_grid(QPainter& p, const GanttModel& model, const GanttLayout& layout,
                const TimeScale& scale, const GanttPalette& palette);
void paint_axis(QPainter& p, const GanttModel& model, const GanttLayout& layout,
                const TimeScale& scale, const GanttPalette& palette);
// What the legend lists: only what the picture can show, so a reader never looks for a colour
// that is not there.
struct LegendContent {
  bool forward = true;
  bool backward = true;
  bool bubble = true;
  bool folded = true;
  bool sequence = true;  // the highlighted sequence's forward and backward colours
  bool sync = false;
  bool memory = false;
  QString memory_scale;  // the memory strips' top ("80.0 GB"), said once here
};
// The legend's entries (long labels), in the order they are drawn.
QStringList legend_labels(const LegendContent& content);
// Title on the top line of `header`, legend right-aligned on the bottom line (when `legend`). The
// legend keeps clear of the leftmost `reserve_left` pixels (where the widget names the highlighted
// sequence) and shortens its labels, then leaves out its last entries, when it does not fit. The
// title's font in a header `width` pixels wide: 1.35 times `base`, smaller (down to `base`) until
// `title` fits; only a title that does not fit at `base` is elided.
QFont title_font(const QFont& base, const QString& title, int width);
void paint_header(QPainter& p, const QRect& header, const QString& title, bool legend,
                  const LegendContent& content, const GanttPalette& palette, int reserve_left = 0);
// Forward and backward packs of all replicas: "118 forward · 96 backward packs" (empty for a
// trace timeline).
QString pack_count_text(const GanttModel& model);
// One line: iteration time, makespan, bubble ratio, tokens/s, MFU (when modelled), peak memory,
// and how many forward and backward packs the picture shows.
QString metrics_text(const GanttModel& model);
void paint_metrics(QPainter& p, const QRect& box, const QString& text, const GanttPalette& palette);
// A folded run of `count` bars, `forward` of them forward: striped in the forward (blue) and/or
// backward (orange) family, the forward share on top, so folding never makes a third colour.
void paint_fold(QPainter& p, const QRect& r, int count, int forward, const GanttPalette& palette);
// The same run column by column from its density (fold_density; column 0 at x = `x0`): in each
// pixel column the forward share on top, the backward share under it, idle left to the lane's
// bubble tint. Neighbouring columns of equal heights are one rectangle.
void paint_fold(QPainter& p, const QRect& r, int x0, const std::vector<FoldColumn>& columns,
                const GanttPalette& palette);
// Whether the model has DP sync or optimizer bars (the legend shows them only then).
bool has_sync_bars(const GanttModel& model);

}  // namespace slimpack
