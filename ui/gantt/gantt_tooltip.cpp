#include "gantt/gantt_tooltip.h"

#include "painter/gantt_painter.h"
#include "render/time_axis.h"

namespace slimpack {
namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

QString gantt_tooltip(const GanttModel& model, BarRef ref, int max_segments) {
  if (!ref.valid() || ref.lane >= model.lane_count() ||
      ref.bar >= static_cast<int>(model.lane(ref.lane).bars.size()))
    return {};
  const GanttBar& bar = model.bar(ref);
  const GanttLane& lane = model.lane(ref.lane);
  const std::string& unit = model.time_unit();
  QString text = QStringLiteral("<b>%1</b> &middot; stage %2").arg(bar_label(bar)).arg(lane.stage);
  if (model.replicas() > 1) text += QStringLiteral(" &middot; replica %1").arg(lane.replica);
  if (bar.chunk > 0) text += QStringLiteral(" &middot; chunk %1").arg(bar.chunk);
  text += QStringLiteral("<br>%1 &ndash; %2 (%3)")
              .arg(q(format_time(bar.start, unit)), q(format_time(bar.end, unit)),
                   q(format_time(bar.duration(), unit)));
  const auto segs = model.segments(ref);
  if (!segs.empty()) {
    text += QStringLiteral("<br>%1 tokens in %2 segment%3")
                .arg(model.tokens(ref))
                .arg(segs.size())
                .arg(segs.size() == 1 ? "" : "s");
    QStringList list;
    for (std::size_t i = 0; i < segs.size() && static_cast<int>(i) < max_segments; ++i) {
      const GanttSegment& s = segs[i];
      const QString id = s.seq >= 0 && s.seq < model.sequence_count()
                             ? q(model.sequence(s.seq).id).toHtmlEscaped()
                             : QStringLiteral("#%1").arg(s.seq);
      list << QStringLiteral("%1[%2:%3)").arg(id).arg(s.begin).arg(s.end);
    }
    if (static_cast<int>(segs.size()) > max_segments)
      list << QStringLiteral("+%1 more").arg(static_cast<int>(segs.size()) - max_segments);
    text += QStringLiteral("<br>") + list.join(QStringLiteral(" "));
  }
  if (model.has_memory()) {
    text += QStringLiteral("<br>memory %1 at start, stage peak %2")
                .arg(q(format_bytes(model.memory_at(ref.lane, bar.start))),
                     q(format_bytes(lane.peak_memory)));
  }
  return text;
}

}  // namespace slimpack
