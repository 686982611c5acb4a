#pragma once
// Metrics of the current snapshot: the key numbers and solver statistics (MetricsModel) over the
// per-stage table (StageModel: busy, bubble, peak memory, headroom).
#include <QWidget>

#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class MetricsModel;
class StageModel;

class MetricsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MetricsPanel(QWidget* parent = nullptr);
  void setSnapshot(const SnapshotPtr& snapshot);
  MetricsModel* metricsModel() const { return metrics_; }
  StageModel* stageModel() const { return stages_; }
  QTableView* stageView() const { return stage_view_; }
  QTableView* metricsView() const { return metrics_view_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // Values whole, names elided: a narrow dock (1280x720) cut the values to "9." and "slimp".
  void fitColumns();

  MetricsModel* metrics_;
  StageModel* stages_;
  QTableView* metrics_view_;
  QTableView* stage_view_;
};

}  // namespace slimpack::ui
