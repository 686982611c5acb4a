#pragma once
// The slice-size sweep: a chart of iteration time and bubble against S, re-run on demand or when
// the workload or configuration (other than S) changed. Clicking a point asks for that S.
#include <QWidget>
#include <vector>

#include "app/explorer_snapshot.h"
#include "app/sweep.h"
#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace slimpack::ui {

class SweepChart;
class StateFrame;

class SweepPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SweepPanel(QWidget* parent = nullptr);
  // True when the sweep on screen was computed for other inputs than `snapshot` (S aside).
  bool isStale(const ExplorerSnapshot& snapshot) const;
  bool isStaleFor(const WorkloadSpec& workload, const ConfigSpec& config,
                  const std::string& plan_file) const;
  bool hasPoints() const { return has_basis_; }
  StateFrame* resultFrame() const { return frame_; }
  QLabel* messageLabel() const { return message_; }
  void setSnapshot(const SnapshotPtr& snapshot);
  void setPoints(const std::vector<SweepPoint>& points, const SnapshotPtr& basis);
  void setRunning(bool running);
  void setMessage(const QString& text);
  void setDark(bool dark);
  SweepChart* chart() const { return chart_; }

 signals:
  void sweepRequested();
  void sliceSelected(slimpack::Tokens s);

 private:
  SweepChart* chart_;
  QPushButton* run_;
  QLabel* message_;
  WorkloadSpec basis_workload_;
  ConfigSpec basis_config_;
  std::string basis_plan_file_;
  StateFrame* frame_ = nullptr;
  bool has_basis_ = false;
};

}  // namespace slimpack::ui
