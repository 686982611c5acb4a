#pragma once
// The explorer's document: what the user asked for (workload, configuration, an opened plan) and
// the newest result. It snapshots the request on the GUI thread, runs the pipeline, sweep, compare
// and file loads through job trackers (newest request wins), and publishes immutable snapshots.
// Panels edit it through setters and listen to its signals; it knows no widget.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

#include "app/compare.h"
#include "app/explorer_snapshot.h"
#include "app/schedule_input.h"
#include "app/sweep.h"
#include "jobs/explorer_inputs.h"
#include "jobs/job_tracker.h"

namespace slimpack::ui {

// What the user asked for, as one value: undo/redo restores it, and each view compares its result's
// basis with it to know whether it shows the current settings.
struct InputState {
  WorkloadSpec workload;
  ConfigSpec config;
  std::shared_ptr<const Plan> plan;  // an opened plan replaces the solver
  std::string plan_file;
  bool operator==(const InputState& o) const {
    return workload == o.workload && config == o.config && plan_file == o.plan_file;
  }
};

// Whether the newest result belongs to the current inputs (STYLE: an outcome, not an error).
enum class ResultState {
  Current,    // the snapshot shows the current inputs
  Computing,  // a job for the current inputs runs (or waits in the debounce window)
  Failed,     // the current inputs cannot be solved; the snapshot shows previous settings
  Cancelled,  // the user cancelled; the snapshot shows previous settings
};

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
  InputState inputs() const { return {workload_, config_, plan_, plan_file_}; }
  // The inputs the snapshot was computed for (empty state when there is none).
  InputState snapshotInputs() const;
  ResultState resultState() const { return state_; }
  // Why the state is Failed or Cancelled (one line, for the banner and the status bar).
  QString resultMessage() const { return state_message_; }
  // The failure itself when the state is Failed (its kind, field and binding limit as values, for
  // the banner's hint); an empty error otherwise.
  const Error& resultError() const { return state_error_; }

  // Replaces every input at once without recording an edit (undo/redo, Reset to Defaults goes
  // through restoreInputs too and records itself).
  void restoreInputs(const InputState& inputs);

  void setWorkload(const WorkloadSpec& spec);
  void setConfig(const ConfigSpec& spec);
  // Replaces workload, configuration and plan at once (opening a session) and solves.
  void setAll(const WorkloadSpec& workload, const ConfigSpec& config);

  // Loads a length file, plan or fitted cost profile on a worker; the session changes only when
  // it loads. Failure emits loadFailed with the file and the reason, except for a multi-column
  // length file opened without a column none of whose columns the reader picks by itself: that
  // emits columnNeeded with its columns and the reader's message, so the window can ask. `column`
  // (a CSV column or JSONL field) overrides the workload's column for this file.
  void openInputFile(const QString& path, const QString& column = {});
  // Uses a fitted cost profile and/or a cost overrides file (empty = none). The files are read and
  // the cost model built on a worker first: a bad file emits loadFailed naming the file and the
  // reason, and the configuration stays as it was.
  void setCostFiles(const QString& profile, const QString& overrides);
  // Uses a Hugging Face config.json as the model (ConfigSpec::hf_config_file). The file is read on
  // a worker first, through the call the cost model is built with: a bad one emits loadFailed
  // naming the file and its field ("config.json: num_hidden_layers: missing"), and the model stays
  // the one in use. A preset chosen later replaces it (setConfig).
  void setModelFile(const QString& path);
  // Back from an opened plan to solving the workload.
  void clearPlan();

  void requestSweep();
  void requestCompare(const QStringList& strategies);
  // The snapshot / inputs the newest sweep and comparison requests were made for (their results,
  // when they arrive, belong to these).
  const SnapshotPtr& sweepBasis() const { return sweep_basis_; }
  const InputState& compareBasis() const { return compare_basis_; }
  void cancelAll();
  // Restores the defaults of a fresh start (embedded workload, default configuration), as one
  // undoable edit.
  void resetToDefaults();

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
  void snapshotChanged(const slimpack::SnapshotPtr& snapshot);
  void pipelineFailed(const QString& message);
  void inputsChanged();  // workload or config changed (panels resync their widgets)
  // A user action changed the inputs: `before` is what they were, `what` names the change
  // ("Slice size", "Open plan.json"). Restoring inputs (undo) does not emit it.
  void inputsEdited(const slimpack::ui::InputState& before, const QString& what);
  void resultStateChanged();
  void loadFailed(const QString& path, const QString& message);
  void columnNeeded(const QString& path, const QStringList& columns, const QString& message);
  void inputLoaded(const QString& path);
  void sweepReady(const std::vector<slimpack::SweepPoint>& points);
  void compareReady(const std::vector<slimpack::CompareEntry>& entries);
  void sweepFailed(const QString& message);
  void compareFailed(const QString& message);

 private:
  void schedule();
  void runPipeline();
  void adoptScheduleSetup(const std::optional<LoadedSchedule>& schedule);
  void setState(ResultState state, const QString& message = {}, const Error& error = {});
  void recordEdit(const InputState& before, const QString& what);
  Batch currentBatch() const;

  WorkloadSpec workload_;
  ConfigSpec config_;
  std::shared_ptr<const LengthPool> pool_;  // the pool of workload_, once loaded
  std::shared_ptr<const Plan> plan_;        // an opened plan replaces the solver
  std::string plan_file_;
  // An opened schedule's cost model, used while the configuration is the one it was opened with.
  bool plan_cost_fixed_ = false;
  std::shared_ptr<const CostModel> plan_cost_;
  ConfigSpec plan_cost_config_;
  SnapshotPtr snapshot_;
  SnapshotPtr sweep_basis_;
  InputState compare_basis_;
  QTimer debounce_;
  bool pending_ = false;    // a change arrived while the debounce window was open
  bool restoring_ = false;  // restoreInputs: changes are not recorded as edits
  ResultState state_ = ResultState::Computing;
  QString state_message_;
  Error state_error_;
  JobTracker pipeline_jobs_;
  JobTracker sweep_jobs_;
  JobTracker compare_jobs_;
  JobTracker load_jobs_;
};

}  // namespace slimpack::ui
