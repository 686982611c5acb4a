#pragma once
// Workload panel: the length source (a preset or an opened file), seed and batch budget, and the
// batch's length histogram with count, mean, p99 and max. It edits a WorkloadSpec and shows the
// statistics of the snapshot it is given; it never runs anything itself.
#include <QWidget>

#include "jobs/explorer_snapshot.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace slimpack::ui {

class LengthHistogramChart;

class WorkloadPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WorkloadPanel(QWidget* parent = nullptr);

  // Shows `spec` without emitting workloadEdited.
  void setSpec(const WorkloadSpec& spec);
  WorkloadSpec spec() const { return spec_; }
  void setSnapshot(const SnapshotPtr& snapshot);
  void setDark(bool dark);

 signals:
  void workloadEdited(const slimpack::ui::WorkloadSpec& spec);
  void openFileRequested();

 private:
  void edited();

  WorkloadSpec spec_;
  QComboBox* source_;
  QPushButton* open_;
  QLineEdit* column_;
  QSpinBox* seed_;
  QSpinBox* batch_k_;  // batch budget in units of 1024 tokens (0 = whole file / default)
  QLabel* stats_;
  LengthHistogramChart* histogram_;
};

}  // namespace slimpack::ui
