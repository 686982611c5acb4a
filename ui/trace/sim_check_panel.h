#pragma once
// "Measured vs simulated" in the Traces tab: the simulated Gantt of the explorer's current plan
// on the measured run's time axis, and how far the model is from the measurement. The measured
// run (one file per rank) is held against the plan's simulation by core/app's check_trace_run,
// with the request this panel builds (request(): the files as loaded, the trace options and the
// unit rules chosen here), the one `slimpack simulate --check-trace` builds from its options:
// per-unit error with the events behind each unit, MAPE, worst units and the makespan error.
// Mapping and checking run as a job (a large trace takes a while to match): core/app's check_run,
// which prices a run of an opened schedule by the schedule's setup (run_pricing) and says when
// that is not what the Configuration panel prices; a run that cannot be of the plan
// (TraceRunCheck::mismatch) shows the verdict and no percentage, in the summary and the table.
#include <QWidget>
#include <memory>
#include <optional>

#include "app/explorer_snapshot.h"
#include "app/trace_run.h"
#include "trace/trace_check.h"
#include "trace/trace_units.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QTableView;
QT_END_NAMESPACE

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class JobTracker;
class SimCheckModel;

class SimCheckPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SimCheckPanel(QWidget* parent = nullptr);
  ~SimCheckPanel() override;

  // The explorer's current result (its plan and simulation); null clears the simulated side.
  void setSimulation(SnapshotPtr snapshot);
  // The measured run (run A of the Traces tab) and the request it was loaded with; null clears
  // the check.
  void setMeasured(std::shared_ptr<const TraceRun> run, const TraceRunRequest& loaded);
  const std::shared_ptr<const TraceRun>& measured() const { return run_; }
  // The explorer's current result the run is held against (null before the first).
  const SnapshotPtr& simulation() const { return snapshot_; }
  // The request for check_trace_run and calibrate_trace_run: the loaded files and options with
  // this panel's rules and GPU-time choice. The CLI builds the same from its options.
  TraceRunRequest request() const;
  // The trace options (session, tests): rules by name or file, GPU time; the files stay.
  void setOptions(const TraceSpec& options);
  // A built-in rule set name ("slimpack", "pytorch", ...); false for an unknown name.
  bool setRuleSet(const QString& name);
  // Any rule set (the mapping-rules dialog's): listed as "NAME (custom)" unless it is a built-in.
  void setRules(const UnitRuleSet& rules);
  // The name of the rule set in use, and the set itself.
  QString ruleSet() const;
  const UnitRuleSet& rules() const { return rules_; }
  bool customRules() const;

  // While the panel is hidden nothing is mapped (a slider drag re-solves many times): the check
  // is marked stale and run when the panel is shown again through this.
  void refreshIfStale();

  GanttView* simulatedView() const { return sim_view_; }
  SimCheckModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  JobTracker& jobs() const { return *jobs_; }
  QString summaryText() const;
  // The last check, when the measured run mapped and a simulation is present.
  const std::optional<TraceCheck>& check() const { return check_; }
  // The last check found that the trace can be a run of the current plan (run_plan_mismatch).
  bool matchesPlan() const { return check_ && run_plan_mismatch(*check_).empty(); }
  // Start (file microseconds) of the earliest mapped unit: the measured time shown as zero.
  std::optional<double> unitsOriginUs() const { return units_origin_us_; }
  // Where table row `row`'s unit runs, measured and simulated together, in seconds on the shared
  // axis (measured: after the first unit; simulated: after the plan's start); empty for no row.
  std::optional<TimeRange> unitRange(int row) const;

 signals:
  // A table row was clicked: show this range (both Gantts follow one axis).
  void unitChosen(double t0, double t1);

  // A check finished: the measured run should be shown from `origin_us` (its first unit).
  void checked(double origin_us);
  void failed(const QString& message);

 private:
  // Constructor steps: the controls' states, the layout, the connections.
  void configureControls();
  void layOut();
  void connectSignals();
  void recheck();
  void showSummary();

  SnapshotPtr snapshot_;
  std::shared_ptr<const TraceRun> run_;
  TraceRunRequest loaded_;
  JobTracker* jobs_;
  GanttView* sim_view_;
  SimCheckModel* model_;
  QTableView* table_;
  QComboBox* rules_box_;
  QCheckBox* gpu_flows_;
  QLabel* summary_;
  UnitRuleSet rules_;
  std::optional<UnitRuleSet> custom_;  // the last set from the dialog, kept for the combo
  std::optional<TraceCheck> check_;
  std::optional<double> units_origin_us_;
  std::vector<MeasuredUnit> units_;  // of the last check, for unitRange
  QString lanes_text_;
  bool stale_ = false;
  QString message_;
  QString priced_by_;  // the schedule's setup, when it priced the check and not the Gantt
};

// `result` with every time scaled from its unit to seconds (explicit-time plans run in abstract
// units, exported as 1 unit = 1 ms), so it shares an axis with a measured trace.
SimResult simulation_in_seconds(const SimResult& result);

}  // namespace slimpack::ui
