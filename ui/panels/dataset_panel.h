#pragma once
// The Dataset tab: `slimpack dataset` in the explorer (core/app/dataset.h). The workload and the
// configuration are the explorer's current ones; the tab sets K and the strategies, runs
// run_dataset on the shared worker pool (its own JobTracker: progress, cancel, stale results
// dropped) and shows the distribution of iteration time per strategy (DatasetChart) over a table
// (DatasetModel). A result the current settings no longer give is greyed as stale until Run. A
// click on a batch point, or a double click on a row (its worst batch), asks the window to show
// that batch in the Gantt (batchChosen: the workload that draws it alone).
#include <QWidget>
#include <memory>

#include "app/dataset.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class DatasetChart;
class DatasetModel;
class JobTracker;
class StateFrame;

class DatasetPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DatasetPanel(QWidget* parent = nullptr);
  ~DatasetPanel() override;

  // The workload and configuration the next run uses; a shown result computed for others greys.
  void setBasis(const WorkloadSpec& workload, const ConfigSpec& config);
  // K: 0 = every batch of a cut file, 16 seeded batches of a preset.
  void setBatches(int batches);
  void setStrategies(const QString& list);
  void setDark(bool dark);
  // The request Run would start.
  DatasetRequest request() const;

  JobTracker& jobs() { return *jobs_; }
  DatasetChart* chart() const { return chart_; }
  DatasetModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  StateFrame* resultFrame() const { return frame_; }
  std::shared_ptr<const DatasetResult> result() const { return result_; }
  QString message() const;

 public slots:
  void run();
  void cancel();
  // Shows batch `batch` (a position in the result's batches) in the Gantt.
  void chooseBatch(int batch);

 signals:
  void batchChosen(const slimpack::WorkloadSpec& workload);
  void finished();

 private:
  void layOut();
  void connectSignals();
  void setRunning(bool running);
  void setResult(std::shared_ptr<const DatasetResult> result, const DatasetRequest& request);
  void showState();

  JobTracker* jobs_;
  DatasetChart* chart_;
  DatasetModel* model_;
  QTableView* table_;
  StateFrame* frame_;
  QSpinBox* batches_;
  QLineEdit* strategies_;
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* message_;
  WorkloadSpec workload_;
  ConfigSpec config_;
  DatasetRequest last_request_;  // what the shown result was computed for
  std::shared_ptr<const DatasetResult> result_;
  bool pending_ = false;  // a run was started and has not delivered
};

}  // namespace slimpack::ui
