#pragma once
// Workload panel: the length source (a preset or an opened file), seed and batch budget, and the
// batch's length histogram with count, mean, p99 and max. It edits a WorkloadSpec and shows the
// statistics of the snapshot it is given; it never runs anything itself.
#include <QWidget>

#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace slimpack::ui {

class LengthHistogramChart;
class StateFrame;

class WorkloadPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WorkloadPanel(QWidget* parent = nullptr);

  // Shows `spec` without emitting workloadEdited.
  void setSpec(const WorkloadSpec& spec);
  WorkloadSpec spec() const { return spec_; }
  void setSnapshot(const SnapshotPtr& snapshot);
  // An opened plan brings its own batch: the source names the plan and seed, batch budget and
  // column (which sample a workload) are disabled. Empty = the workload is solved.
  void setPlanFile(const QString& plan_file);
  QComboBox* sourceBox() const { return source_; }
  QSpinBox* batchBox() const { return batch_k_; }
  // The statistics and histogram of the batch, greyed when they are not the current settings'.
  StateFrame* resultFrame() const { return frame_; }
  void setDark(bool dark);

 signals:
  void workloadEdited(const slimpack::ui::WorkloadSpec& spec);
  void openFileRequested();

 private:
  void edited();
  void showPlanSource();

  WorkloadSpec spec_;
  QComboBox* source_;
  QPushButton* open_;
  QLineEdit* column_;
  QSpinBox* seed_;
  QSpinBox* batch_k_;  // batch budget in units of 1024 tokens (0 = whole file / default)
  QLabel* stats_;
  LengthHistogramChart* histogram_;
  StateFrame* frame_ = nullptr;
  QString plan_file_;
};

}  // namespace slimpack::ui
