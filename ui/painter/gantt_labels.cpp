// The words the Gantt writes: a bar's label ("F3", pack_name(), the name every view and export
// uses), a trace event's name and a folded run's count of packs by pass.
#include <QFontMetrics>
#include <QStringList>

#include "common/format.h"
#include "painter/gantt_painter.h"
#include "plan/pack_name.h"
#include "render/trace_timeline.h"

namespace slimpack {

QString trace_bar_label(const GanttModel& model, const GanttBar& bar) {
  const TraceTimeline* trace = model.trace();
  return trace ? QString::fromStdString(trace->name(trace->locate(bar.pack))) : QString();
}

QString bar_label(const GanttBar& bar) {
  switch (bar.kind) {
    case BarKind::Forward:
      return QString::fromStdString(pack_name(Pass::Forward, bar.pack));
    case BarKind::Backward:
      return QString::fromStdString(pack_name(Pass::Backward, bar.pack));
    case BarKind::DpSync:
      return QStringLiteral("sync");
    case BarKind::Optimizer:
      return QStringLiteral("opt");
    case BarKind::Trace:
      return {};  // the event's name: trace_bar_label
  }
  return {};
}

QString fold_label(const GanttModel& model, int lane, const DrawItem& item, const QFontMetrics& fm,
                   int width) {
  const auto& bars = model.lane(lane).bars;
  const auto first = static_cast<std::size_t>(item.first);
  const auto last = static_cast<std::size_t>(item.first + item.count - 1);
  const bool trace = item.kind == BarKind::Trace;
  const int packs = item.forward + item.backward;
  const int steps = item.count - packs;  // DP syncs and optimizer steps
  const int shown = trace || packs == 0 ? item.count : packs;
  QStringList candidates;
  if (item.count > 1 && last < bars.size()) {
    const QString span =
        QString::fromStdString(format_time(bars[last].end - bars[first].start, model.time_unit()));
    if (!trace) {
      const QString extra = steps > 0 ? QStringLiteral(" + %1 sync/opt").arg(steps) : QString();
      candidates << QStringLiteral("%1 packs (%2 F · %3 B)%4 · %5")
                        .arg(packs)
                        .arg(item.forward)
                        .arg(item.backward)
                        .arg(extra, span);
    }
    const QString what = trace       ? QStringLiteral("events")
                         : packs > 0 ? QStringLiteral("packs")
                                     : QStringLiteral("sync/opt");
    candidates << QStringLiteral("%1 %2 · %3").arg(shown).arg(what, span);
  }
  candidates << QStringLiteral("×%1").arg(shown);
  for (const QString& text : candidates)
    if (fm.horizontalAdvance(text) + 4 <= width) return text;
  return {};
}

}  // namespace slimpack
