#include "painter/gantt_chrome.h"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "render/time_axis.h"

namespace slimpack {
namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

struct LegendEntry {
  QColor color;
  QString text;
  QString short_text;
  bool folded = false;
};

std::vector<LegendEntry> legend_entries(const LegendContent& c, const GanttPalette& palette) {
  std::vector<LegendEntry> entries;
  if (c.forward)
    entries.push_back(
        {palette.forward[0], QStringLiteral("Forward pack"), QStringLiteral("Forward")});
  if (c.backward)
    entries.push_back(
        {palette.backward[0], QStringLiteral("Backward pack"), QStringLiteral("Backward")});
  if (c.bubble)
    entries.push_back(
        {palette.bubble_tint, QStringLiteral("Bubble (idle)"), QStringLiteral("Bubble")});
  if (c.folded)
    entries.push_back(
        {QColor(), QStringLiteral("Folded packs (×n)"), QStringLiteral("Folded ×n"), true});
  if (c.sequence) {
    entries.push_back(
        {palette.highlight, QStringLiteral("Sequence, forward"), QStringLiteral("Seq F")});
    entries.push_back({palette.highlight_backward, QStringLiteral("Sequence, backward"),
                       QStringLiteral("Seq B")});
  }
  if (c.sync)
    entries.push_back(
        {palette.sync, QStringLiteral("DP sync / optimizer"), QStringLiteral("Sync / opt")});
  if (c.memory) {
    const QString text = c.memory_scale.isEmpty()
                             ? QStringLiteral("Memory")
                             : QStringLiteral("Memory (strip top %1)").arg(c.memory_scale);
    const QString short_text = c.memory_scale.isEmpty()
                                   ? QStringLiteral("Memory")
                                   : QStringLiteral("Memory ≤ %1").arg(c.memory_scale);
    entries.push_back({palette.memory_fill, text, short_text});
  }
  return entries;
}

}  // namespace

void paint_fold(QPainter& p, const QRect& r, int count, int forward, const GanttPalette& palette) {
  if (r.isEmpty() || count <= 0) return;
  const double share = std::clamp(double(forward) / count, 0.0, 1.0);
  int fwd_h = static_cast<int>(std::lround(r.height() * share));
  // Any forward (or backward) work in the run stays visible as at least one pixel row.
  if (forward > 0 && fwd_h == 0) fwd_h = 1;
  if (forward < count && fwd_h == r.height() && r.height() > 1) fwd_h = r.height() - 1;
  const QRect top(r.left(), r.top(), r.width(), fwd_h);
  const QRect bottom(r.left(), r.top() + fwd_h, r.width(), r.height() - fwd_h);
  for (const auto& [part, family] : {std::pair{top, palette.forward}, {bottom, palette.backward}}) {
    if (part.isEmpty()) continue;
    p.fillRect(part, family[1]);
    p.fillRect(part, QBrush(family[0], Qt::BDiagPattern));
  }
}

void paint_fold(QPainter& p, const QRect& r, int x0, const std::vector<FoldColumn>& columns,
                const GanttPalette& palette) {
  const int h = r.height();
  auto heights = [&](const FoldColumn& c) {
    int fh = static_cast<int>(std::lround(h * c.forward));
    int bh = static_cast<int>(std::lround(h * c.backward));
    // Any work in a column stays visible as at least one pixel row, as in the striped fold.
    if (c.forward > 0.0f && fh == 0) fh = 1;
    if (c.backward > 0.0f && bh == 0) bh = 1;
    return std::pair(std::min(fh, h), std::min(bh, std::max(0, h - std::min(fh, h))));
  };
  auto fill = [&](int from, int to, std::pair<int, int> fb) {
    const int left = std::max(from, r.left()), right = std::min(to, r.right() + 1);
    if (right <= left) return;
    const QRect top(left, r.top(), right - left, fb.first);
    const QRect below(left, r.top() + fb.first, right - left, fb.second);
    for (const auto& [part, family] :
         {std::pair{top, palette.forward}, {below, palette.backward}}) {
      if (part.isEmpty()) continue;
      p.fillRect(part, family[1]);
      p.fillRect(part, QBrush(family[0], Qt::BDiagPattern));
    }
  };
  int start = x0;
  std::pair<int, int> run{-1, -1};
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const auto fb = heights(columns[i]);
    const int x = x0 + static_cast<int>(i);
    if (fb == run) continue;
    if (run.first >= 0) fill(start, x, run);
    start = x;
    run = fb;
  }
  if (run.first >= 0) fill(start, x0 + static_cast<int>(columns.size()), run);
}

bool has_sync_bars(const GanttModel& model) {
  return model.has_sync();
}

void paint_lane_labels(QPainter& p, const GanttModel& model, const GanttLayout& layout,
                       const GanttPalette& palette) {
  p.fillRect(layout.labels, palette.label_background);
  const QFontMetrics fm(p.font());
  const int pad = fm.averageCharWidth();
  p.setPen(palette.text);
  for (int l = 0; l < model.lane_count(); ++l) {
    const QRect row(layout.labels.left() + pad, layout.lane_top[static_cast<std::size_t>(l)],
                    layout.labels.width() - 2 * pad, layout.lane_height);
    if (layout.lane_height >= fm.ascent())
      p.drawText(row, Qt::AlignVCenter | Qt::AlignLeft,
                 fm.elidedText(lane_label(model, l), Qt::ElideRight, row.width()));
    // Separator under each lane; a stronger one closes a replica group.
    const bool group_end =
        l + 1 == model.lane_count() || model.lane(l + 1).replica != model.lane(l).replica;
    if (layout.lane_height >= 10 || group_end) {
      const int y = layout.lane_top[static_cast<std::size_t>(l)] + layout.lane_height - 1;
      p.fillRect(QRect(layout.labels.left(), y, layout.plot.right() + 1 - layout.labels.left(), 1),
                 group_end ? palette.lane_separator : palette.grid);
    }
  }
}

void paint_grid(QPainter& p, const GanttModel& model, const GanttLayout& layout,
                const TimeScale& scale, const GanttPalette& palette) {
  const TimeAxis axis = compute_time_axis(scale, model.time_unit());
  for (const AxisTick& t : axis.ticks) {
    const int x = static_cast<int>(std::lround(t.x));
    if (x < layout.plot.left() || x > layout.plot.right()) continue;
    p.fillRect(QRect(x, layout.plot.top(), 1, layout.plot.height()), palette.grid);
  }
}

void paint_axis(QPainter& p, const GanttModel& model, const GanttLayout& layout,
                const TimeScale& scale, const GanttPalette& palette) {
  const TimeAxis axis = compute_time_axis(scale, model.time_unit());
  const QFontMetrics fm(p.font());
  p.fillRect(QRect(layout.plot.left(), layout.axis.top(), layout.plot.width(), 1),
             palette.lane_separator);
  p.setPen(palette.text_dim);
  for (const AxisTick& t : axis.ticks) {
    const int x = static_cast<int>(std::lround(t.x));
    if (x < layout.plot.left() || x > layout.plot.right()) continue;
    p.fillRect(QRect(x, layout.axis.top(), 1, 4), palette.lane_separator);
    const QString label = q(t.label);
    const int w = fm.horizontalAdvance(label);
    p.drawText(QRect(x - w / 2 - 2, layout.axis.top() + 4, w + 4, fm.height()), Qt::AlignCenter,
               label);
  }
  if (model.time_unit() != "s") {
    // Abstract plans: say what the numbers are once, in the label column.
    p.drawText(QRect(layout.labels.left() + 4, layout.axis.top() + 4, layout.labels.width() - 8,
                     fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(QStringLiteral("units"), Qt::ElideRight,
                             std::max(0, layout.labels.width() - 8 - fm.averageCharWidth() * 2)));
  }
}

QStringList legend_labels(const LegendContent& content) {
  QStringList out;
  for (const auto& e : legend_entries(content, GanttPalette::make(GanttTheme::Light)))
    out << e.text;
  return out;
}

void paint_header(QPainter& p, const QRect& header, const QString& title, bool legend,
                  const LegendContent& content, const GanttPalette& palette, int reserve_left) {
  p.fillRect(header, palette.background);
  const QFontMetrics fm(p.font());
  if (legend) {
    std::vector<LegendEntry> entries = legend_entries(content, palette);
    const int sw = fm.height();
    // Right-aligned with the plot, which keeps half a tick label of room on its right.
    const int right =
        header.right() + 1 - std::max(6, fm.horizontalAdvance(QStringLiteral("000.0 ms")) / 2);
    const int room = right - (header.left() + std::max(6, reserve_left));
    // Long labels when they fit, else short ones, else the last entries are left out: the
    // legend never runs off the picture (a laptop-sized Gantt is narrow).
    bool use_short = false;
    auto width_of = [&](bool short_labels) {
      int w = 0;
      for (const LegendEntry& e : entries)
        w += fm.horizontalAdvance(short_labels ? e.short_text : e.text) + sw + 4 + 14;
      return w;
    };
    if (width_of(false) > room) use_short = true;
    while (entries.size() > 1 && width_of(true) > room) entries.pop_back();
    int x = right;
    const int y = header.bottom() + 1 - fm.height() - 4;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      const QString& text = use_short ? it->short_text : it->text;
      const int tw = fm.horizontalAdvance(text);
      x -= tw;
      p.setPen(palette.text);
      p.drawText(QRect(x, y, tw, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
      x -= sw + 4;
      p.fillRect(QRect(x, y + 2, sw, fm.height() - 4), palette.lane_separator);
      if (it->folded)  // half forward, half backward, as a run of mixed packs is drawn
        paint_fold(p, QRect(x + 1, y + 3, sw - 2, fm.height() - 6), 2, 1, palette);
      else
        p.fillRect(QRect(x + 1, y + 3, sw - 2, fm.height() - 6), it->color);
      x -= 14;
    }
  }
  if (!title.isEmpty()) {
    p.save();
    p.setPen(palette.text);
    // The legend sits on the bottom line and the title has the top line to itself (the layout
    // gives a titled header two lines): the whole width, so that workload, p, t, S and strategy
    // reach the slide (it stopped at the legend's left end and was cut there).
    const QRect r(header.left() + 6, header.top() + 2, std::max(0, header.width() - 12),
                  header.height() - 4);
    const QFont f = title_font(p.font(), title, r.width());
    p.setFont(f);
    p.drawText(r, Qt::AlignLeft | Qt::AlignTop,
               QFontMetrics(f).elidedText(title, Qt::ElideRight, r.width()));
    p.restore();
  }
}

QFont title_font(const QFont& base, const QString& title, int width) {
  QFont f = base;
  f.setBold(true);
  const double smallest = base.pointSizeF() > 0 ? base.pointSizeF() : 9.0;
  f.setPointSizeF(smallest * 1.35);
  while (QFontMetrics(f).horizontalAdvance(title) > width && f.pointSizeF() > smallest)
    f.setPointSizeF(std::max(smallest, f.pointSizeF() * 0.9));
  return f;
}

QString pack_count_text(const GanttModel& model) {
  if (model.trace()) return {};
  // Per replica, the highest pack number of each pass (stage 0 runs every pack; an interleaved
  // schedule runs each pack once per chunk there).
  long long forward = 0;
  long long backward = 0;
  for (const GanttLane& lane : model.lanes()) {
    if (lane.stage != 0) continue;
    int f = -1;
    int b = -1;
    for (const GanttBar& bar : lane.bars) {
      if (bar.kind == BarKind::Forward) f = std::max(f, static_cast<int>(bar.pack));
      if (bar.kind == BarKind::Backward) b = std::max(b, static_cast<int>(bar.pack));
    }
    forward += f + 1;
    backward += b + 1;
  }
  if (forward == 0 && backward == 0) return {};
  return QStringLiteral("%1 forward · %2 backward packs").arg(forward).arg(backward);
}

QString metrics_text(const GanttModel& model) {
  const SimResult& m = model.metrics();
  const std::string& unit = model.time_unit();
  QStringList parts;
  parts << QStringLiteral("Iteration %1").arg(q(format_time(m.iteration_time, unit)));
  parts << QStringLiteral("Makespan %1").arg(q(format_time(m.makespan, unit)));
  parts << QStringLiteral("Bubble %1").arg(q(format_percent(m.bubble_ratio)));
  if (m.tokens_per_second > 0) parts << q(format_rate(m.tokens_per_second));
  if (m.mfu > 0) parts << QStringLiteral("MFU %1").arg(q(format_percent(m.mfu)));
  if (m.peak_memory_bytes > 0)
    parts << QStringLiteral("Peak memory %1").arg(q(format_bytes(m.peak_memory_bytes)));
  if (const QString packs = pack_count_text(model); !packs.isEmpty()) parts << packs;
  if (!m.legal) parts << QStringLiteral("ILLEGAL: %1").arg(q(m.legality_message));
  return parts.join(QStringLiteral("   ·   "));
}

void paint_metrics(QPainter& p, const QRect& box, const QString& text,
                   const GanttPalette& palette) {
  p.fillRect(box, palette.lane_separator);
  p.fillRect(box.adjusted(1, 1, -1, -1), palette.metrics_background);
  const QFontMetrics fm(p.font());
  p.setPen(palette.text);
  const QRect inner = box.adjusted(8, 0, -8, 0);
  p.drawText(inner, Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(text, Qt::ElideRight, inner.width()));
}

}  // namespace slimpack
