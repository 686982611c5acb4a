#pragma once
// The explorer's document: what the user asked for (workload, configuration, an opened plan) and
// the newest result. It snapshots the request on the GUI thread, runs the pipeline, sweep, compare
// and file loads through job trackers (newest request wins), and publishes immutable snapshots.
// Panels edit it through setters and listen to its signals; it knows no widget.
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

#include "jobs/compare.h"
#include "jobs/explorer_snapshot.h"
#include "jobs/job_tracker.h"
#include "jobs/sweep.h"

namespace slimpack::ui {

class ExplorerController : public QObject {
  Q_OBJECT
 public:
  // Coalescing delay for live edits (slider drags): the first change after a quiet period runs
  // at once, later ones within the window are merged into one trailing request.
  static constexpr int kDebounceMs = 50;

  explicit ExplorerController(QObject* parent = nullptr);

  const WorkloadSpec& workload() const { return workload_; }
  const ConfigSpec& config() const { return config_; }
  const SnapshotPtr& snapshot() const { return snapshot_; }
  QString planFile() const { return QString::fromStdString(plan_file_); }

  void setWorkload(const WorkloadSpec& spec);
  void setConfig(const ConfigSpec& spec);
  // Replaces workload, configuration and plan at once (opening a session) and solves.
  void setAll(const WorkloadSpec& workload, const ConfigSpec& config);

  // Loads a length file, plan or fitted cost profile on a worker; the session changes only when
  // it loads. Failure emits loadFailed with the file and the reason.
  void openInputFile(const QString& path);
  // Uses a fitted cost profile and/or a cost overrides file (empty = none). The files are read and
  // the cost model built on a worker first: a bad file emits loadFailed naming the file and the
  // reason, and the configuration stays as it was.
  void setCostFiles(const QString& profile, const QString& overrides);
  // Back from an opened plan to solving the workload.
  void clearPlan();

  void requestSweep();
  void requestCompare(const QStringList& strategies);
  void cancelAll();

  // True while any of the controller's jobs runs, or an edit waits in the debounce window.
  bool busy() const {
    return pending_ || pipeline_jobs_.busy() || sweep_jobs_.busy() || compare_jobs_.busy() ||
           load_jobs_.busy();
  }
  JobTracker& pipelineJobs() { return pipeline_jobs_; }
  JobTracker& sweepJobs() { return sweep_jobs_; }
  JobTracker& compareJobs() { return compare_jobs_; }
  JobTracker& loadJobs() { return load_jobs_; }

 signals:
  void snapshotChanged(const slimpack::ui::SnapshotPtr& snapshot);
  void pipelineFailed(const QString& message);
  void inputsChanged();  // workload or config changed (panels resync their widgets)
  void loadFailed(const QString& path, const QString& message);
  void inputLoaded(const QString& path);
  void sweepReady(const std::vector<slimpack::ui::SweepPoint>& points);
  void compareReady(const std::vector<slimpack::ui::CompareEntry>& entries);
  void sweepFailed(const QString& message);
  void compareFailed(const QString& message);

 private:
  void schedule();
  void runPipeline();
  Batch currentBatch() const;

  WorkloadSpec workload_;
  ConfigSpec config_;
  std::shared_ptr<const LengthPool> pool_;  // the pool of workload_, once loaded
  std::shared_ptr<const Plan> plan_;        // an opened plan replaces the solver
  std::string plan_file_;
  SnapshotPtr snapshot_;
  QTimer debounce_;
  bool pending_ = false;  // a change arrived while the debounce window was open
  JobTracker pipeline_jobs_;
  JobTracker sweep_jobs_;
  JobTracker compare_jobs_;
  JobTracker load_jobs_;
};

}  // namespace slimpack::ui
