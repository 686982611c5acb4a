#include "painter/gantt_layout.h"

#include <algorithm>

namespace slimpack {

QRect GanttLayout::lane_rect(int lane) const {
  return QRect(plot.left(), lane_top[static_cast<std::size_t>(lane)], plot.width(), lane_height);
}

QRect GanttLayout::bar_band(int lane) const {
  return QRect(plot.left(), lane_top[static_cast<std::size_t>(lane)] + bar_inset, plot.width(),
               bar_height);
}

QRect GanttLayout::memory_band(int lane) const {
  return QRect(plot.left(), lane_top[static_cast<std::size_t>(lane)] + bar_inset + bar_height + 1,
               plot.width(), memory_height);
}

int GanttLayout::lane_at(int y) const {
  const auto it = std::upper_bound(lane_top.begin(), lane_top.end(), y);
  if (it == lane_top.begin()) return -1;
  const auto lane = static_cast<int>(it - lane_top.begin()) - 1;
  return y < lane_top[static_cast<std::size_t>(lane)] + lane_height ? lane : -1;
}

QString lane_label(const GanttModel& model, int lane) {
  const GanttLane& l = model.lane(lane);
  // Trace rows carry their own names (a deeper nesting row of a lane has none).
  if (model.trace() || !l.label.empty()) return QString::fromStdString(l.label);
  const QString stage = QStringLiteral("Stage %1").arg(l.stage);
  return model.replicas() > 1 ? QStringLiteral("R%1 · %2").arg(l.replica).arg(stage) : stage;
}

int natural_label_width(const GanttModel& model, const QFontMetrics& fm) {
  int w = fm.horizontalAdvance(QStringLiteral("Stage 00"));
  if (model.trace()) {
    // Trace rows name threads and streams: fit the longest, within reason (the rest is elided).
    const int cap = fm.averageCharWidth() * 36;
    for (int l = 0; l < model.lane_count(); ++l)
      w = std::max(w, std::min(cap, fm.horizontalAdvance(lane_label(model, l))));
  } else if (model.lane_count() > 0) {
    w = std::max(w, fm.horizontalAdvance(lane_label(model, model.lane_count() - 1)));
  }
  return w + 2 * fm.averageCharWidth() + 4;
}

GanttLayout compute_layout(const GanttModel& model, const QRect& area,
                           const GanttPaintOptions& options, const QFontMetrics& fm) {
  GanttLayout g;
  g.area = area;
  const int line = fm.height();
  int top = area.top();
  int bottom = area.bottom() + 1;

  if (!options.title.isEmpty() || options.legend) {
    // A title takes a line of its own above the legend's, in a font 1.35 times as large
    // (paint_header), so that neither is cut to make room for the other.
    const int title_line = (line * 27 + 19) / 20;
    const int h = options.title.isEmpty() ? line + 8 : title_line + line + 8;
    g.header = QRect(area.left(), top, area.width(), h);
    top += h;
  }
  if (options.metrics) {
    const int h = line + 14;
    g.metrics = QRect(area.left() + 4, bottom - h - 2, area.width() - 8, h);
    bottom -= h + 6;
  }
  if (options.axis) {
    const int h = line + 8;
    g.axis = QRect(area.left(), bottom - h, area.width(), h);
    bottom -= h;
  }

  int label_w = options.label_width > 0 ? options.label_width : natural_label_width(model, fm);
  if (options.label_width <= 0 && options.memory_strip && model.has_memory()) {
    // Room for each strip's "peak 42.3 GB" (drawn at 0.8 of the base font).
    const int peak_w = fm.horizontalAdvance(QStringLiteral("peak 000.0 GB")) * 4 / 5;
    label_w = std::max(label_w, peak_w + 2 * fm.averageCharWidth());
  }
  const int lanes = model.lane_count();
  const int group_gap = model.replicas() > 1 ? std::max(4, line / 2) : 0;
  const int gaps = group_gap * std::max(0, model.replicas() - 1);
  const int avail = std::max(0, bottom - top - 2 - gaps);
  if (options.lane_height > 0) {
    g.lane_height = options.lane_height;
  } else {
    g.lane_height = lanes > 0 ? avail / lanes : options.max_lane_height;
    g.lane_height = std::clamp(g.lane_height, options.min_lane_height, options.max_lane_height);
  }
  const int plot_h = lanes * g.lane_height + gaps;
  const int x_plot = area.left() + label_w;
  // Keep a few pixels right of the plot so the last tick label is not cut.
  const int right_pad = options.axis ? fm.horizontalAdvance(QStringLiteral("000.0 ms")) / 2 : 2;
  const int plot_w = std::max(1, area.right() + 1 - x_plot - right_pad);
  g.plot = QRect(x_plot, top + 1, plot_w, plot_h);
  g.labels = QRect(area.left(), top + 1, label_w, plot_h);
  if (options.axis) g.axis.moveTop(g.plot.bottom() + 1);
  if (options.metrics && options.axis) g.metrics.moveTop(g.axis.bottom() + 5);

  // Within a row: 1 px gap on top and bottom, the memory strip takes about two fifths when shown.
  g.bar_inset = g.lane_height >= 10 ? 2 : 1;
  const int inner = std::max(1, g.lane_height - 2 * g.bar_inset);
  g.memory_height = options.memory_strip && model.has_memory() ? std::max(3, inner * 2 / 5) : 0;
  g.bar_height = std::max(1, inner - (g.memory_height > 0 ? g.memory_height + 1 : 0));

  g.lane_top.resize(static_cast<std::size_t>(lanes));
  int y = g.plot.top();
  for (int l = 0; l < lanes; ++l) {
    if (l > 0 && model.lane(l).replica != model.lane(l - 1).replica) y += group_gap;
    g.lane_top[static_cast<std::size_t>(l)] = y;
    y += g.lane_height;
  }
  return g;
}

}  // namespace slimpack
