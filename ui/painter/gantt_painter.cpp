#include "painter/gantt_painter.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

#include "painter/gantt_chrome.h"
#include "render/sequence_slices.h"
#include "render/time_axis.h"

namespace slimpack {
namespace {

// Integer pixel span of [x0, x1): rounded edges so touching bars stay touching, at least 1 px.
std::pair<int, int> span_px(double x0, double x1) {
  const int a = static_cast<int>(std::lround(x0));
  const int b = std::max(a + 1, static_cast<int>(std::lround(x1)));
  return {a, b};
}

// A pack label inside its bar: across when it fits, else along a tall narrow bar (turned a quarter
// turn, in a smaller font when needed), so the tall rows of a slide or of presentation mode name
// their packs on every stage.
void draw_bar_label(QPainter& p, const QRect& r, const QString& text, const QFontMetrics& fm) {
  const int w = fm.horizontalAdvance(text) + 4;
  if (w <= r.width() && fm.ascent() <= r.height()) {
    p.drawText(r, Qt::AlignCenter, text);
    return;
  }
  if (w > r.height() || r.width() < 6) return;
  QFont font = p.font();
  // Turned, the glyphs need their cap height across the bar (digits and capitals only); a smaller
  // font (down to two thirds, and not under 7 pt) names a narrower bar.
  if (fm.capHeight() + 2 > r.width()) {
    const double base = font.pointSizeF();
    if (base <= 0) return;
    bool fits = false;
    for (const double f : {0.8, 0.67}) {
      if (base * f < 7.0) break;
      font.setPointSizeF(base * f);
      const QFontMetrics small(font);
      if ((fits = small.capHeight() + 2 <= r.width() &&
                  small.horizontalAdvance(text) + 4 <= r.height()))
        break;
    }
    if (!fits) return;
  }
  p.save();
  p.setFont(font);
  p.translate(r.center().x() + 1, r.center().y() + 1);
  p.rotate(-90);
  p.drawText(QRect(-r.height() / 2, -r.width() / 2, r.height(), r.width()), Qt::AlignCenter, text);
  p.restore();
}

}  // namespace

GanttPainter::GanttPainter(const GanttModel& model, GanttPaintOptions options)
    : model_(model), options_(std::move(options)), palette_(GanttPalette::make(options_.theme)) {}

GanttLayout GanttPainter::layout(const QRect& area) const {
  return compute_layout(model_, area, options_, QFontMetrics(options_.font));
}

GanttGeometry GanttPainter::geometry(const GanttLayout& layout, TimeRange range) const {
  GanttGeometry g;
  g.plot = layout.plot;
  g.scale = TimeScale(range, layout.plot.left(), layout.plot.width());
  g.lanes = build_draw_lists(model_, g.scale);
  for (const auto& l : g.lanes) g.item_count += l.size();
  if (layout.memory_height <= 0) return g;

  // Per plot column the highest memory reached inside the column's time interval.
  const double top = std::max(model_.peak_memory(), options_.memory_cap_bytes);
  const int cols = layout.plot.width();
  g.memory.resize(static_cast<std::size_t>(model_.lane_count()));
  for (int l = 0; l < model_.lane_count(); ++l) {
    const auto& pts = model_.lane(l).memory;
    auto& col = g.memory[static_cast<std::size_t>(l)];
    if (pts.empty() || top <= 0.0) continue;
    col.assign(static_cast<std::size_t>(cols), 0.0f);
    const double t_start = g.scale.t_of(layout.plot.left());
    auto it = std::upper_bound(pts.begin(), pts.end(), t_start,
                               [](double v, const MemoryPoint& m) { return v < m.time; });
    double current = it == pts.begin() ? 0.0 : std::prev(it)->bytes;
    for (int c = 0; c < cols; ++c) {
      const double t_end = g.scale.t_of(layout.plot.left() + c + 1);
      double peak = current;
      for (; it != pts.end() && it->time < t_end; ++it) {
        current = it->bytes;
        peak = std::max(peak, current);
      }
      col[static_cast<std::size_t>(c)] = static_cast<float>(peak / top);
    }
  }
  return g;
}

void GanttPainter::paint_lane(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo,
                              int lane) const {
  const QRect band = layout.bar_band(lane);
  const GanttLane& l = model_.lane(lane);
  if (options_.bubble_tint && !l.bars.empty()) {
    // Idle time inside the replica's makespan: the bars are painted over it, gaps stay tinted.
    const double end = model_.metrics().makespan > 0 ? model_.metrics().makespan : l.max_end.back();
    const auto [a, b] = span_px(std::max(geo.scale.x_of(0.0), double(band.left())),
                                std::min(geo.scale.x_of(end), double(band.right() + 1)));
    if (b > a && geo.scale.x_of(end) > band.left()) {
      p.fillRect(QRect(a, band.top(), b - a, band.height()), palette_.bubble_tint);
    }
  }
  const QFontMetrics fm(options_.font);
  const bool labels = options_.bar_labels && band.height() >= fm.ascent();
  const int min_label_w = fm.horizontalAdvance(QStringLiteral("F8")) + 4;
  p.setPen(palette_.bar_text);
  for (const DrawItem& d : geo.lanes[static_cast<std::size_t>(lane)]) {
    const auto [a, b] = span_px(d.x0, d.x1);
    const QRect r(a, band.top(), b - a, band.height());
    if (d.folded()) {
      if (d.kind == BarKind::Trace)
        p.fillRect(r, palette_.trace_fold);
      else if (const auto cols = fold_density(model_, lane, d, geo.scale); !cols.empty())
        paint_fold(p, r, static_cast<int>(std::floor(d.x0)), cols, palette_);
      else
        paint_fold(p, r, d.count, d.forward, palette_);
      if (labels && r.width() >= min_label_w + 8) {
        const QString text = fold_label(model_, lane, d, fm, r.width());
        if (!text.isEmpty()) p.drawText(r, Qt::AlignCenter, text);
      }
      continue;
    }
    const GanttBar& bar = l.bars[static_cast<std::size_t>(d.first)];
    if (bar.kind == BarKind::Trace) {
      p.fillRect(r, palette_.trace[bar.chunk & 7]);
      if (labels && r.width() >= min_label_w) {
        const QString text = trace_bar_label(model_, bar);
        p.setPen(palette_.trace_text);
        p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(text, Qt::ElideRight, r.width() - 4));
        p.setPen(palette_.bar_text);
      }
      continue;
    }
    const int shade = bar.pack & 1;
    const QColor& c = bar.kind == BarKind::Forward    ? palette_.forward[shade]
                      : bar.kind == BarKind::Backward ? palette_.backward[shade]
                                                      : palette_.sync;
    p.fillRect(r, c);
    if (labels && (r.width() >= min_label_w || r.height() >= min_label_w))
      draw_bar_label(p, r, bar_label(bar), fm);
  }
}

void GanttPainter::paint_memory(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo,
                                int lane) const {
  if (layout.memory_height <= 0 || geo.memory.empty()) return;
  const auto& col = geo.memory[static_cast<std::size_t>(lane)];
  if (col.empty()) return;
  const QRect band = layout.memory_band(lane);
  const int h = band.height();
  // Runs of equal column height become one fillRect.
  int run_start = 0;
  int run_h = -1;
  auto flush = [&](int end_col) {
    if (run_h <= 0) return;
    const QRect r(band.left() + run_start, band.bottom() + 1 - run_h, end_col - run_start, run_h);
    p.fillRect(r, palette_.memory_fill);
    p.fillRect(QRect(r.left(), r.top(), r.width(), 1), palette_.memory_line);  // the step's edge
  };
  for (int c = 0; c < static_cast<int>(col.size()); ++c) {
    const int ch = std::clamp(static_cast<int>(std::lround(col[c] * h)), 0, h);
    if (ch != run_h) {
      flush(c);
      run_start = c;
      run_h = ch;
    }
  }
  flush(static_cast<int>(col.size()));
  const double top = std::max(model_.peak_memory(), options_.memory_cap_bytes);
  // The strip's scale, in the label column beside it: its top is `top`, its bottom zero.
  const int lane_label_bottom = layout.lane_top[static_cast<std::size_t>(lane)] +
                                layout.lane_height / 2 + QFontMetrics(options_.font).height() / 2;
  if (h >= 6 && top > 0 && band.top() >= lane_label_bottom) {
    QFont small = options_.font;
    small.setPointSizeF(small.pointSizeF() > 0 ? small.pointSizeF() * 0.8 : 7.0);
    const QFontMetrics sfm(small);
    if (h >= sfm.ascent()) {
      p.save();
      p.setClipping(false);
      p.setFont(small);
      p.setPen(palette_.memory_line);
      // The stage's own peak; the strip's scale (its top) is said once, in the legend.
      const QRect label(layout.labels.left(), band.top(), layout.labels.width() - 4,
                        std::max(h, sfm.height()));
      const QString peak = QStringLiteral("peak %1").arg(
          QString::fromStdString(format_bytes(model_.lane(lane).peak_memory)));
      p.drawText(label, Qt::AlignRight | Qt::AlignTop,
                 sfm.elidedText(peak, Qt::ElideLeft, label.width()));
      p.restore();
    }
  }
  if (options_.memory_cap_bytes > 0 && top > 0) {
    const int y =
        band.bottom() + 1 - static_cast<int>(std::lround(options_.memory_cap_bytes / top * h));
    p.fillRect(QRect(band.left(), std::max(band.top(), y), band.width(), 1), palette_.memory_line);
  }
}

void GanttPainter::paint_base(QPainter& p, const GanttLayout& layout,
                              const GanttGeometry& geo) const {
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setFont(options_.font);
  p.fillRect(layout.area, palette_.background);
  paint_grid(p, model_, layout, geo.scale, palette_);
  p.save();
  p.setClipRect(layout.plot);
  for (int l = 0; l < model_.lane_count(); ++l) paint_lane(p, layout, geo, l);
  p.restore();
  paint_lane_labels(p, model_, layout, palette_);
  // After the labels: each memory strip writes its scale into the label column.
  p.save();
  p.setClipRect(layout.plot);
  for (int l = 0; l < model_.lane_count(); ++l) paint_memory(p, layout, geo, l);
  p.restore();
  if (options_.axis) paint_axis(p, model_, layout, geo.scale, palette_);
  if (!layout.header.isEmpty())
    paint_header(
        p, layout.header, options_.title, options_.legend, legend_content(layout, geo), palette_,
        options_.title.isEmpty() ? std::min(highlight_name_width(), layout.header.width() / 3) : 0);
  if (!layout.metrics.isEmpty()) paint_metrics(p, layout.metrics, metrics_text(model_), palette_);
  p.restore();
}

LegendContent GanttPainter::legend_content(const GanttLayout& layout,
                                           const GanttGeometry& geo) const {
  LegendContent c;
  c.forward = c.backward = c.folded = false;
  for (const GanttLane& lane : model_.lanes())
    for (const GanttBar& bar : lane.bars) {
      c.forward = c.forward || bar.kind == BarKind::Forward;
      c.backward = c.backward || bar.kind == BarKind::Backward;
      if (c.forward && c.backward) break;
    }
  for (const auto& lane : geo.lanes)
    for (const DrawItem& d : lane) c.folded = c.folded || d.folded();
  c.bubble = options_.bubble_tint && model_.metrics().bubble_ratio > 0.0;
  c.sequence = options_.legend_sequence;
  c.sync = model_.has_sync();
  c.memory = layout.memory_height > 0;
  if (c.memory)
    c.memory_scale = QString::fromStdString(
        format_bytes(std::max(model_.peak_memory(), options_.memory_cap_bytes)));
  return c;
}

QRect GanttPainter::bar_rect(const GanttLayout& layout, const GanttGeometry& geo,
                             BarRef ref) const {
  const GanttBar& bar = model_.bar(ref);
  const QRect band = layout.bar_band(ref.lane);
  const double lo = band.left() - 2.0;
  const double hi = band.right() + 3.0;
  const auto [a, b] = span_px(std::clamp(geo.scale.x_of(bar.start), lo, hi),
                              std::clamp(geo.scale.x_of(bar.end), lo, hi));
  return QRect(a, band.top(), b - a, band.height());
}

void GanttPainter::paint_overlay(QPainter& p, const GanttLayout& layout, const GanttGeometry& geo,
                                 SeqIndex highlight, BarRef hovered) const {
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setClipRect(layout.plot);
  p.setFont(options_.font);
  const QFontMetrics fm(options_.font);
  const TimeRange& range = geo.scale.range();
  for (const BarRef& ref : model_.sequence_bars(highlight)) {
    const GanttBar& bar = model_.bar(ref);
    if (bar.end < range.t0 || bar.start > range.t1) continue;
    QRect r = bar_rect(layout, geo, ref);
    if (r.width() < 2) r.setWidth(2);  // thin highlighted slices must stay findable
    const bool backward = bar.kind == BarKind::Backward;
    const QColor& fill = backward ? palette_.highlight_backward : palette_.highlight;
    if (r.width() >= 5 && r.height() >= 5) {
      p.fillRect(r, backward ? palette_.highlight_backward_outline : palette_.highlight_outline);
      p.fillRect(r.adjusted(1, 1, -1, -1), fill);
    } else {
      p.fillRect(r, fill);
    }
    const QString text = bar.kind == BarKind::Trace ? trace_bar_label(model_, bar) : bar_label(bar);
    if (options_.bar_labels) {
      p.setPen(palette_.bar_text);
      draw_bar_label(p, r, text, fm);
    }
  }
  if (highlight >= 0 && highlight < model_.sequence_count() && !layout.header.isEmpty() &&
      options_.title.isEmpty()) {
    // Name the highlighted sequence where an export puts its title.
    p.setClipping(false);
    const Sequence& seq = model_.sequence(highlight);
    const QString text = QStringLiteral("Highlighted: %1 · %2 tok · %3 slices")
                             .arg(QString::fromStdString(seq.id))
                             .arg(QLocale(QLocale::English).toString(qlonglong(seq.length)))
                             .arg(sequence_slice_count(model_, highlight));
    const QRect r(layout.header.left() + 6, layout.header.top(),
                  std::min(highlight_name_width(), layout.header.width() / 3),
                  layout.header.height());
    p.fillRect(r, palette_.background);
    // Its two colours: forward (upper half) and backward (lower half).
    p.fillRect(QRect(r.left(), r.center().y() - 5, 10, 5), palette_.highlight);
    p.fillRect(QRect(r.left(), r.center().y(), 10, 5), palette_.highlight_backward);
    p.setPen(palette_.text);
    p.drawText(r.adjusted(16, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(text, Qt::ElideRight, r.width() - 16));
    p.setClipRect(layout.plot);
  }
  if (hovered.valid() && hovered.lane < model_.lane_count()) {
    const QRect r = bar_rect(layout, geo, hovered).adjusted(-1, -1, 1, 1);
    const QColor& c = palette_.hover_outline;
    p.fillRect(QRect(r.left(), r.top(), r.width(), 1), c);
    p.fillRect(QRect(r.left(), r.bottom(), r.width(), 1), c);
    p.fillRect(QRect(r.left(), r.top(), 1, r.height()), c);
    p.fillRect(QRect(r.right(), r.top(), 1, r.height()), c);
  }
  p.restore();
}

void GanttPainter::paint(QPainter& p, const QRect& area, TimeRange range,
                         SeqIndex highlight) const {
  const GanttLayout l = layout(area);
  const GanttGeometry g = geometry(l, range);
  paint_base(p, l, g);
  if (highlight >= 0) paint_overlay(p, l, g, highlight, BarRef{});
}

int GanttPainter::highlight_name_width() const {
  // Room for "Highlighted: <id> · 131,072 tokens · 128 slices" with an id of about 12 chars.
  const QFontMetrics fm(options_.font);
  return fm.horizontalAdvance(
             QStringLiteral("Highlighted: seq-00000000 · 000,000 tok · 000 slices")) +
         24;
}

BarRef GanttPainter::hit(const GanttLayout& layout, const GanttGeometry& geo, QPoint pos) const {
  if (pos.x() < layout.plot.left() - 2 || pos.x() > layout.plot.right() + 2) return {};
  const int lane = layout.lane_at(pos.y());
  if (lane < 0) return {};
  const double t = geo.scale.t_of(pos.x() + 0.5);
  const auto bar = model_.hit(lane, t, 2.0 * geo.scale.time_per_px());
  return bar ? BarRef{lane, *bar} : BarRef{};
}

}  // namespace slimpack
