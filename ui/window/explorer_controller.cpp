#include "window/explorer_controller.h"

#include <algorithm>

#include "app/input_file.h"
#include "app/pipeline.h"
#include "models/format.h"
#include "solver/strategy.h"

namespace slimpack::ui {
namespace {

// The name of an edit in Edit > Undo: the first field that differs.
QString changeName(const ConfigSpec& a, const ConfigSpec& b) {
  if (a.slice_size != b.slice_size) return QObject::tr("Slice Size");
  if (a.strategy != b.strategy) return QObject::tr("Strategy");
  if (a.pp != b.pp || a.dp != b.dp || a.tp != b.tp) return QObject::tr("Parallelism");
  if (a.model != b.model || a.hf_config_file != b.hf_config_file || a.gpu != b.gpu)
    return QObject::tr("Model / GPU");
  if (a.packs != b.packs) return QObject::tr("Packs");
  if (a.schedule != b.schedule || a.vchunks != b.vchunks) return QObject::tr("Schedule");
  if (a.memory_cap_gb != b.memory_cap_gb) return QObject::tr("Memory Cap");
  if (a.cost_profile_file != b.cost_profile_file || a.cost_overrides_file != b.cost_overrides_file)
    return QObject::tr("Costs");
  return QObject::tr("Configuration");
}

QString changeName(const WorkloadSpec& a, const WorkloadSpec& b) {
  if (a.seed != b.seed) return QObject::tr("Seed");
  if (a.batch_tokens != b.batch_tokens || a.batch_count != b.batch_count)
    return QObject::tr("Batch Budget");
  if (a.column != b.column) return QObject::tr("Column");
  return QObject::tr("Lengths");
}

QString fileName(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return QString::fromStdString(slash == std::string::npos ? path : path.substr(slash + 1));
}

}  // namespace

ExplorerController::ExplorerController(QObject* parent)
    : QObject(parent),
      pipeline_jobs_(this),
      sweep_jobs_(this),
      compare_jobs_(this),
      load_jobs_(this) {
  config_.strategy = default_strategy();
  // What the user waits on after an edit or an open must not queue behind a sweep or a comparison.
  pipeline_jobs_.setInteractive(true);
  load_jobs_.setInteractive(true);
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDebounceMs);
  connect(&debounce_, &QTimer::timeout, this, [this] {
    if (!pending_) return;
    pending_ = false;
    runPipeline();
    debounce_.start();  // keep coalescing while edits keep coming
  });
}

InputState ExplorerController::snapshotInputs() const {
  if (!snapshot_) return {};
  return {snapshot_->workload, snapshot_->config, nullptr, snapshot_->plan_file};
}

void ExplorerController::setState(ResultState state, const QString& message, const Error& error) {
  if (state == state_ && message == state_message_) return;
  state_ = state;
  state_message_ = message;
  state_error_ = state == ResultState::Failed ? error : Error();
  emit resultStateChanged();
}

void ExplorerController::recordEdit(const InputState& before, const QString& what) {
  if (!restoring_ && !(before == inputs())) emit inputsEdited(before, what);
}

void ExplorerController::restoreInputs(const InputState& in) {
  const bool was = restoring_;
  restoring_ = true;
  if (!in.workload.same_pool(workload_)) pool_.reset();
  workload_ = in.workload;
  config_ = in.config;
  plan_ = in.plan;
  plan_file_ = in.plan ? in.plan_file : std::string();
  emit inputsChanged();
  debounce_.stop();
  pending_ = false;
  runPipeline();
  restoring_ = was;
}

void ExplorerController::setWorkload(const WorkloadSpec& spec) {
  if (spec == workload_ && !plan_) return;
  const InputState before = inputs();
  if (!spec.same_pool(workload_)) pool_.reset();
  workload_ = spec;
  plan_.reset();
  plan_file_.clear();
  emit inputsChanged();
  recordEdit(before, before.plan ? tr("Close Plan") : changeName(before.workload, workload_));
  schedule();
}

void ExplorerController::setConfig(const ConfigSpec& spec) {
  if (spec == config_) return;
  const InputState before = inputs();
  config_ = spec;
  emit inputsChanged();
  recordEdit(before, changeName(before.config, config_));
  schedule();
}

void ExplorerController::setAll(const WorkloadSpec& workload, const ConfigSpec& config) {
  const InputState before = inputs();
  if (!workload.same_pool(workload_)) pool_.reset();
  workload_ = workload;
  config_ = config;
  plan_.reset();
  plan_file_.clear();
  emit inputsChanged();
  recordEdit(before, tr("Settings"));
  debounce_.stop();
  pending_ = false;
  runPipeline();
}

void ExplorerController::schedule() {
  if (debounce_.isActive()) {
    pending_ = true;
    setState(ResultState::Computing);
    return;
  }
  runPipeline();
  debounce_.start();
}

void ExplorerController::runPipeline() {
  PipelineRequest req;
  req.workload = workload_;
  req.config = config_;
  req.cached_pool = pool_;
  req.plan = plan_;
  req.plan_file = plan_file_;
  // A schedule's own cost model prices it until the user changes the configuration.
  if (plan_ && plan_cost_fixed_ && config_ == plan_cost_config_) {
    req.plan_cost_fixed = true;
    req.plan_cost = plan_cost_;
  }
  setState(ResultState::Computing);
  pipeline_jobs_.start(
      tr("Solving"),
      [req](const CancelToken& cancel, ProgressSink& progress) {
        return run_pipeline(req, cancel, progress);
      },
      [this](Expected<ExplorerSnapshot> result) {
        if (!result) {
          const QString message = readableMessage(result.error().message);
          // A newer edit waiting in the debounce window will run: stay "computing".
          if (!pending_) setState(ResultState::Failed, message, result.error());
          emit pipelineFailed(message);
          return;
        }
        // Keep the pool for the next request only if the inputs did not move on meanwhile.
        if (result->pool && result->workload.same_pool(workload_)) pool_ = result->pool;
        snapshot_ = std::make_shared<const ExplorerSnapshot>(std::move(*result));
        if (!pending_) setState(ResultState::Current);
        emit snapshotChanged(snapshot_);
      });
}

namespace {

// A load and, when it failed for want of a column, the columns the file offers.
struct LoadAttempt {
  Expected<LoadedInput> loaded;
  std::vector<std::string> columns;
};

}  // namespace

void ExplorerController::openInputFile(const QString& path, const QString& chosen) {
  const std::string file = path.toStdString();
  const std::string column = !chosen.isEmpty()        ? chosen.toStdString()
                             : workload_.file == file ? workload_.column
                                                      : std::string();
  load_jobs_.start(
      tr("Loading"),
      [file, column](const CancelToken&, ProgressSink& progress) -> Expected<LoadAttempt> {
        progress.report("reading " + file, 0.0);
        LoadAttempt attempt{load_input_file(file, column), {}};
        // Without a column, a file of several columns none of which the reader takes by itself
        // ("length", "num_tokens", ...) fails: offer its columns instead of only the refusal.
        if (!attempt.loaded && column.empty())
          if (auto columns = length_file_columns(file); columns && columns->size() >= 2)
            attempt.columns = std::move(*columns);
        return attempt;
      },
      [this, path, file, column](Expected<LoadAttempt> attempt) {
        if (!attempt) {
          emit loadFailed(path, readableMessage(attempt.error().message));
          return;
        }
        Expected<LoadedInput>& loaded = attempt->loaded;
        if (!loaded && !attempt->columns.empty()) {
          QStringList columns;
          for (const std::string& c : attempt->columns) columns << QString::fromStdString(c);
          emit columnNeeded(path, columns, readableMessage(loaded.error().message));
          return;
        }
        if (!loaded) {
          emit loadFailed(path, readableMessage(loaded.error().message));
          return;
        }
        if (loaded->kind == InputKind::CostProfile) {
          // A fitted profile replaces the coefficients of whatever is solved or simulated.
          ConfigSpec next = config_;
          next.cost_profile_file = file;
          setConfig(next);
          emit inputLoaded(path);
          return;
        }
        const InputState before = inputs();
        if (loaded->kind == InputKind::Plan) {
          plan_ = loaded->plan;
          plan_file_ = file;
          config_.pp = plan_->stages;
          config_.dp = plan_->dp();
          config_.schedule = plan_->schedule;
          // A plan's strategy names what made it ("hand-made", another tool); only a strategy
          // this program can run may become the one "Solve the Workload" goes back to.
          const auto known = strategy_names();
          if (std::find(known.begin(), known.end(), plan_->strategy) != known.end())
            config_.strategy = plan_->strategy;
          adoptScheduleSetup(loaded->schedule);
        } else {
          workload_.file = file;
          workload_.column = column;
          workload_.batch_tokens = 0;  // a file is the batch, as in the CLI
          pool_ = loaded->pool;
          plan_.reset();
          plan_file_.clear();
        }
        emit inputLoaded(path);
        emit inputsChanged();
        recordEdit(before, tr("Open %1").arg(fileName(file)));
        debounce_.stop();
        pending_ = false;
        runPipeline();
      });
}

void ExplorerController::adoptScheduleSetup(const std::optional<LoadedSchedule>& schedule) {
  plan_cost_fixed_ = schedule.has_value();
  plan_cost_.reset();
  if (!schedule) return;
  // The panel shows the schedule's parallelism. Its model's split and recompute only when the
  // model is one the panel knows (a split of another model's layers would not sum); the
  // schedule's own cost model prices the plan either way, until the configuration changes.
  const ConfigSpec& fixed = schedule->config;
  config_.tp = fixed.tp;
  config_.cp = fixed.cp;
  const auto models = model_preset_names();
  if (std::find(models.begin(), models.end(), fixed.model) != models.end()) {
    config_.model = fixed.model;
    config_.recompute = fixed.recompute;
    config_.stage_split = fixed.stage_split;
  }
  const auto gpus = gpu_preset_names();
  if (std::find(gpus.begin(), gpus.end(), fixed.gpu) != gpus.end()) config_.gpu = fixed.gpu;
  plan_cost_ = schedule->cost;
  plan_cost_config_ = config_;
}

void ExplorerController::clearPlan() {
  if (!plan_) return;
  const InputState before = inputs();
  plan_.reset();
  plan_file_.clear();
  emit inputsChanged();
  recordEdit(before, tr("Close Plan"));
  schedule();
}

Batch ExplorerController::currentBatch() const {
  Batch batch;
  if (snapshot_ && snapshot_->plan) batch.sequences = snapshot_->plan->sequences;
  return batch;
}

void ExplorerController::requestSweep() {
  if (!snapshot_) return;
  SweepRequest req;
  req.batch = currentBatch();
  req.config = snapshot_->config;
  req.seed = snapshot_->workload.seed;
  req.slice_sizes = default_slice_sizes(snapshot_->batch_stats.max);
  sweep_basis_ = snapshot_;
  sweep_jobs_.start(
      tr("Sweeping S"),
      [req](const CancelToken& cancel, ProgressSink& progress) {
        return run_sweep(req, cancel, progress);
      },
      [this](Expected<std::vector<SweepPoint>> points) {
        if (!points) {
          emit sweepFailed(readableMessage(points.error().message));
          return;
        }
        emit sweepReady(*points);
      });
}

void ExplorerController::requestCompare(const QStringList& strategies) {
  if (!snapshot_) return;
  CompareRequest req;
  req.batch = currentBatch();
  req.config = snapshot_->config;
  req.seed = snapshot_->workload.seed;
  for (const QString& s : strategies) req.strategies.push_back(s.toStdString());
  compare_basis_ = snapshotInputs();
  compare_jobs_.start(
      tr("Comparing"),
      [req](const CancelToken& cancel, ProgressSink& progress) {
        return run_compare(req, cancel, progress);
      },
      [this](Expected<std::vector<CompareEntry>> entries) {
        if (!entries) {
          emit compareFailed(readableMessage(entries.error().message));
          return;
        }
        emit compareReady(*entries);
      });
}

void ExplorerController::resetToDefaults() {
  const InputState before = inputs();
  InputState defaults;
  defaults.config.strategy = default_strategy();
  const bool was = restoring_;
  restoring_ = true;
  restoreInputs(defaults);
  restoring_ = was;
  recordEdit(before, tr("Reset to Defaults"));
}

void ExplorerController::cancelAll() {
  const bool solving = pending_ || pipeline_jobs_.busy();
  debounce_.stop();
  pending_ = false;
  if (solving)
    setState(ResultState::Cancelled,
             tr("Cancelled before the result for the current settings was ready"));
  pipeline_jobs_.cancel();
  sweep_jobs_.cancel();
  compare_jobs_.cancel();
  load_jobs_.cancel();
}

}  // namespace slimpack::ui
