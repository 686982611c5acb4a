#include "trace/bubble_model.h"

#include "app/trace_pipeline_report.h"
#include "trace/bubble_overlay.h"

namespace slimpack::ui {
namespace {

// The CLI's words for a time of the analysis (core/app/trace_pipeline_report.h).
QString text(double us) {
  return QString::fromStdString(bubble_time_text(us));
}

BubbleModel::ColumnSpec time_column(const QString& header, double BubbleRow::*us,
                                    const QString& tooltip) {
  return {.header = header,
          .display = [us](const BubbleRow& r) { return text(r.*us); },
          .sortValue = [us](const BubbleRow& r) { return r.*us; },
          .alignment = kNumberAlignment,
          .headerTooltip = tooltip};
}

// A cause's column, its cells tinted with the cause's colour on the timeline.
BubbleModel::ColumnSpec cause_column(const QString& header, BubbleCause cause,
                                     const QString& tooltip) {
  const auto i = static_cast<std::size_t>(cause);
  QColor tint = bubbleCauseColor(cause);
  tint.setAlpha(60);
  return {.header = header,
          .display = [i](const BubbleRow& r) { return text(r.by_cause[i]); },
          .sortValue = [i](const BubbleRow& r) { return r.by_cause[i]; },
          .alignment = kNumberAlignment,
          .headerTooltip = tooltip,
          .background = [tint](const BubbleRow&) { return QBrush(tint); }};
}

void add_rows(std::vector<BubbleRow>& rows, const PipelineBubbles& b, bool simulated) {
  for (const StageBubbles& s : b.stages)
    rows.push_back({s.replica, s.stage, simulated, s.busy_us, s.idle_us, s.by_cause});
}

}  // namespace

BubbleModel::BubbleModel(QObject* parent) : TableModel(parent) {
  setColumns({
      {.header = tr("Stage"),
       .display =
           [](const BubbleRow& r) {
             return r.replica > 0 ? tr("r%1 s%2").arg(r.replica).arg(r.stage)
                                  : QString::number(r.stage);
           },
       .alignment = kNumberAlignment},
      {.header = tr("Run"),
       .display =
           [](const BubbleRow& r) { return r.simulated ? tr("simulated") : tr("measured"); }},
      time_column(tr("Busy"), &BubbleRow::busy_us, tr("Union of the stage's units")),
      cause_column(tr("Dependency"), BubbleCause::Dependency,
                   tr("Waiting for a message whose producing unit on another stage had not "
                      "finished")),
      cause_column(tr("Transfer"), BubbleCause::Transfer,
                   tr("The producer had finished; the message was still in flight")),
      cause_column(tr("Fill / drain"), BubbleCause::Fill,
                   tr("Before the stage's first unit (fill) and after its last (drain)")),
      cause_column(tr("Other"), BubbleCause::Other,
                   tr("Everything else: host work, launch gaps, a wait after the message was "
                      "there")),
      time_column(tr("Idle"), &BubbleRow::idle_us, tr("Makespan minus busy: the four causes")),
  });
}

void BubbleModel::setResult(const TracePipeline& result) {
  std::vector<BubbleRow> rows;
  std::vector<BubbleRow> measured, simulated;
  add_rows(measured, result.measured, false);
  add_rows(simulated, result.simulated, true);
  // Each stage's measured row, then its simulated one.
  for (const BubbleRow& m : measured) {
    rows.push_back(m);
    for (const BubbleRow& s : simulated)
      if (s.replica == m.replica && s.stage == m.stage) rows.push_back(s);
  }
  resetRows(std::move(rows));
}

void BubbleModel::clear() {
  resetRows({});
}

}  // namespace slimpack::ui
