#pragma once
// The Bubbles view drawn on run A's timeline (a TraceView's overlay, trace_view.h): on the lanes
// that carry a stage's units, every idle interval of the stage filled in its cause's colour
// (core/sim/pipeline_bubbles.h: dependency, transfer, fill and drain, other), and the measured
// critical path outlined, unit by unit, with its messages as lines from the producing stage to
// the receiving one. Times come from trace_pipeline_run's measured analysis, whose zero is the
// run's first unit; the view's zero may be another event, so each paint maps them through the
// timeline's origin.
#include <QColor>
#include <memory>

#include "app/trace_pipeline.h"

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace slimpack::ui {

class TraceView;

// The colour of each cause (the table's and the legend's too), and of the critical path.
QColor bubbleCauseColor(BubbleCause cause);
QColor criticalPathColor();

class BubbleOverlay {
 public:
  void setResult(std::shared_ptr<const TracePipeline> result) { result_ = std::move(result); }
  const std::shared_ptr<const TracePipeline>& result() const { return result_; }

  // Paints on `view` (its current model, rows, layout and time scale).
  void paint(QPainter& p, const TraceView& view) const;

 private:
  std::shared_ptr<const TracePipeline> result_;
};

}  // namespace slimpack::ui
