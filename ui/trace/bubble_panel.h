#pragma once
// "Bubbles" in the Traces tab: where run A's pipeline bubbles come from, measured against the
// explorer's current plan. It follows the measured-vs-simulated check (sim_check_panel.h): each
// check that maps the run is followed by core/app's trace_pipeline_run, on a worker, with the
// check's own request (files, options, rules), plan and simulation, as `slimpack trace pipeline`
// runs it. Shown: a legend, the critical path and the longest dependency wait in a line, and a
// table per stage (busy and idle by cause, measured beside simulated); while the panel is shown,
// run A's timeline has the bubbles coloured by cause and the critical path outlined
// (bubble_overlay.h).
#include <QWidget>
#include <memory>

#include "app/trace_pipeline.h"
#include "trace/bubble_overlay.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class BubbleModel;
class JobTracker;
class SimCheckPanel;
class TraceView;

class BubblePanel : public QWidget {
  Q_OBJECT

 public:
  explicit BubblePanel(QWidget* parent = nullptr);
  ~BubblePanel() override;

  // Follows `check` (each check it finishes is analysed again) and paints on `view` while shown.
  void attach(SimCheckPanel* check, TraceView* view);
  // Analyses the attached check's run now (a hidden panel waits until it is shown).
  void analyse();

  JobTracker& jobs() const { return *jobs_; }
  BubbleModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  // The last analysis; null before one, or after a failure (summaryText() says why).
  const std::shared_ptr<const TracePipeline>& result() const { return overlay_.result(); }
  QString summaryText() const;

 signals:
  void analysed();  // a result or a failure is shown

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  QWidget* buildLegend();
  void clear(const QString& message);
  void showResult(std::shared_ptr<const TracePipeline> result);
  void updateOverlay();

  JobTracker* jobs_;
  BubbleModel* model_;
  QTableView* table_;
  QLabel* summary_;
  SimCheckPanel* check_ = nullptr;
  TraceView* view_ = nullptr;
  BubbleOverlay overlay_;
  bool stale_ = false;
};

}  // namespace slimpack::ui
