#include "trace/sim_check_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <map>

#include "app/run_check.h"
#include "gantt/gantt_view.h"
#include "jobs/job_tracker.h"
#include "models/format.h"
#include "plan/pack_name.h"
#include "trace/chrome_trace.h"
#include "trace/sim_check_model.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

const int kBuiltins = static_cast<int>(builtin_unit_rule_set_names().size());

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

void scale_ops(std::vector<TimedOp>& ops, double k) {
  for (TimedOp& op : ops) {
    op.start *= k;
    op.end *= k;
  }
}

}  // namespace

SimResult simulation_in_seconds(const SimResult& result) {
  if (result.time_unit == "s") return result;
  const double k = trace_us_per_unit(result) * 1e-6;
  SimResult out = result;
  for (ReplicaResult& r : out.replicas) {
    r.makespan *= k;
    r.finish *= k;
    for (StageResult& st : r.stages) {
      scale_ops(st.ops, k);
      scale_ops(st.comm, k);
      st.busy *= k;
      for (MemoryPoint& m : st.memory) m.time *= k;
    }
    scale_ops(r.critical_path.ops, k);
    r.critical_path.compute *= k;
    r.critical_path.comm *= k;
    r.critical_path.idle *= k;
  }
  out.makespan *= k;
  out.iteration_time *= k;
  out.stage_work_bound *= k;
  if (out.tokens_per_second > 0.0) out.tokens_per_second /= k;
  out.time_unit = "s";
  return out;
}

SimCheckPanel::SimCheckPanel(QWidget* parent)
    : QWidget(parent),
      jobs_(new JobTracker(this)),
      sim_view_(new GanttView),
      model_(new SimCheckModel(this)),
      table_(new QTableView),
      rules_box_(new QComboBox),
      gpu_flows_(new QCheckBox(tr("GPU time by flows"))),
      summary_(new QLabel) {
  setObjectName(QStringLiteral("simCheckPanel"));
  configureControls();
  layOut();
  rules_ = *builtin_unit_rules("slimpack");
  connectSignals();
  showSummary();
}

void SimCheckPanel::configureControls() {
  for (const std::string& name : builtin_unit_rule_set_names()) rules_box_->addItem(q(name));
  rules_box_->setToolTip(
      tr("Which events of the measured trace are pipeline work: slimpack (F<k>/B<k> ranges: our "
         "simulate --trace export, a PyTorch runtime's record_function), pytorch (F<k>/B<k> "
         "record_function ranges only), megatron (forward-compute / backward-compute timers), "
         "dualpipe (attn(F), mlp(B), ... annotations)"));
  gpu_flows_->setObjectName(QStringLiteral("simCheckGpuFlows"));
  gpu_flows_->setToolTip(
      tr("A unit's time: the span of the GPU kernels its CPU range launched (followed by ac2g "
         "flows) instead of the CPU range itself"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setObjectName(QStringLiteral("simCheckSummary"));
  sim_view_->setObjectName(QStringLiteral("simulatedView"));
  table_->setObjectName(QStringLiteral("simCheckTable"));
  table_->setModel(model_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(SimCheckModel::Error, Qt::DescendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
}

// The rules bar over the simulated Gantt and the table, which share the height 3:2.
void SimCheckPanel::layOut() {
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Simulated (current plan) · measured units by rules")));
  bar->addWidget(rules_box_);
  bar->addWidget(gpu_flows_);
  bar->addWidget(summary_, 1);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(sim_view_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(split, 1);
}

void SimCheckPanel::connectSignals() {
  connect(rules_box_, &QComboBox::activated, this, [this](int index) {
    if (custom_ && index == rules_box_->count() - 1 && index >= kBuiltins)
      rules_ = *custom_;
    else
      rules_ = *builtin_unit_rules(rules_box_->itemText(index).toStdString());
    recheck();
  });
  connect(gpu_flows_, &QCheckBox::toggled, this, [this] { recheck(); });
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (const auto r = unitRange(index.row())) {
      const double pad = std::max(r->span() * 0.25, 1e-6);
      emit unitChosen(r->t0 - pad, r->t1 + pad);
    }
  });
}

SimCheckPanel::~SimCheckPanel() = default;

std::optional<TimeRange> SimCheckPanel::unitRange(int row) const {
  if (row < 0 || row >= model_->rowCount() || !units_origin_us_ || !snapshot_) return {};
  const UnitComparison& u = model_->unit(row);
  double t0 = std::numeric_limits<double>::infinity();
  double t1 = -t0;
  for (const MeasuredUnit& m : units_)
    if (m.replica == u.replica && m.stage == u.stage && m.pass == u.pass && m.pack == u.pack) {
      t0 = std::min(t0, (m.start_us - *units_origin_us_) * 1e-6);
      t1 = std::max(t1, (m.start_us + m.dur_us - *units_origin_us_) * 1e-6);
    }
  const SimResult& sim = snapshot_->sim;
  const double k = trace_us_per_unit(sim) * 1e-6;  // simulated time to seconds
  if (u.replica < static_cast<int>(sim.replicas.size()) &&
      u.stage < static_cast<int>(sim.replicas[static_cast<std::size_t>(u.replica)].stages.size()))
    for (const TimedOp& op : sim.replicas[static_cast<std::size_t>(u.replica)]
                                 .stages[static_cast<std::size_t>(u.stage)]
                                 .ops)
      if (op.pack == u.pack && op.pass == u.pass &&
          (op.kind == OpKind::Forward || op.kind == OpKind::Backward)) {
        t0 = std::min(t0, op.start * k);
        t1 = std::max(t1, op.end * k);
      }
  if (!(t1 >= t0)) return {};
  return TimeRange{t0, t1};
}

void SimCheckPanel::setSimulation(SnapshotPtr snapshot) {
  snapshot_ = std::move(snapshot);
  if (snapshot_ && snapshot_->plan) {
    // Explicit-time plans: their abstract units become seconds (1 unit = 1 ms, as exported).
    if (snapshot_->sim.time_unit == "s")
      sim_view_->setModel(snapshot_->gantt, true);
    else
      sim_view_->setModel(std::make_shared<const GanttModel>(GanttModel::build(
                              *snapshot_->plan, simulation_in_seconds(snapshot_->sim))),
                          true);
  } else {
    sim_view_->setModel(nullptr);
  }
  recheck();
}

void SimCheckPanel::setMeasured(std::shared_ptr<const TraceRun> run,
                                const TraceRunRequest& loaded) {
  run_ = std::move(run);
  loaded_ = loaded;
  recheck();
}

TraceRunRequest SimCheckPanel::request() const {
  TraceRunRequest r = loaded_;
  r.options.rules = rules_.name;
  r.options.gpu_flows = gpu_flows_->isChecked();
  r.rules_json = customRules() ? unit_rules_to_json(rules_) : std::string();
  return r;
}

void SimCheckPanel::setOptions(const TraceSpec& options) {
  loaded_.options = options;
  {
    const QSignalBlocker block(gpu_flows_);
    gpu_flows_->setChecked(options.gpu_flows);
  }
  if (!setRuleSet(q(options.rules))) {
    // A rules file: listed as a custom set (a file that no longer reads leaves the rules as
    // they were, and the summary says why).
    auto rules = read_unit_rules(options.rules);
    if (rules)
      setRules(*rules);
    else
      message_ = q(rules.error().message);
  }
}

bool SimCheckPanel::setRuleSet(const QString& name) {
  auto builtin = builtin_unit_rules(name.toStdString());
  if (!builtin) return false;
  rules_ = std::move(*builtin);
  rules_box_->setCurrentIndex(rules_box_->findText(name));
  recheck();
  return true;
}

void SimCheckPanel::setRules(const UnitRuleSet& rules) {
  for (const std::string& name : builtin_unit_rule_set_names())
    if (unit_rules_to_json(*builtin_unit_rules(name)) == unit_rules_to_json(rules)) {
      setRuleSet(q(name));
      return;
    }
  custom_ = rules;
  rules_ = rules;
  const QString label = tr("%1 (custom)").arg(q(rules.name.empty() ? "rules" : rules.name));
  if (rules_box_->count() > kBuiltins)
    rules_box_->setItemText(kBuiltins, label);
  else
    rules_box_->addItem(label);
  rules_box_->setCurrentIndex(kBuiltins);
  recheck();
}

void SimCheckPanel::refreshIfStale() {
  if (stale_) recheck();
}

bool SimCheckPanel::customRules() const {
  return rules_box_->currentIndex() >= kBuiltins;
}

QString SimCheckPanel::ruleSet() const {
  return q(rules_.name);
}

QString SimCheckPanel::summaryText() const {
  return summary_->text();
}

void SimCheckPanel::recheck() {
  jobs_->cancel();
  check_.reset();
  units_origin_us_.reset();
  units_.clear();
  lanes_text_.clear();
  message_.clear();
  priced_by_.clear();
  model_->clear();
  stale_ = false;
  if (!run_ || !snapshot_ || !snapshot_->plan) {
    showSummary();
    return;
  }
  if (isHidden()) {
    stale_ = true;
    return;
  }
  message_ = tr("mapping…");
  showSummary();
  jobs_->start(
      tr("Mapping trace units"),
      [run = run_, snapshot = snapshot_, request = request()](
          const CancelToken& cancel, ProgressSink& progress) -> Expected<TraceRunCheck> {
        progress.report("mapping trace units (" + request.options.rules + ")", 0.0);
        // core/app's check of a run: an opened schedule's run priced by the schedule's setup,
        // even when the Configuration panel now names another model.
        auto pricing =
            run_pricing(*snapshot->plan, snapshot->plan_file, snapshot->config, snapshot->cost);
        if (!pricing) return pricing.error();
        auto result = check_run(*run, request, *snapshot->plan, *pricing, snapshot->sim,
                                snapshot->cost.get());
        // Named in the summary only when it is not what priced the Gantt above.
        if (result && snapshot->cost && same_pricing(*snapshot->cost, *pricing->cost))
          result->priced_by.clear();
        if (cancel.cancelled()) return Error::cancelled();
        return result;
      },
      [this](Expected<TraceRunCheck> result) {
        if (!result) {
          if (result.error().kind == ErrorKind::Cancelled) return;
          message_ = q(result.error().message);
          showSummary();
          emit failed(message_);
          return;
        }
        double origin = 0.0;
        bool any = false;
        for (const MeasuredUnit& u : result->mapped.units) {
          origin = any ? std::min(origin, u.start_us) : u.start_us;
          any = true;
        }
        units_origin_us_ = origin;
        units_ = result->mapped.units;
        // Busy time and idle ratio per mapped stage (lanes of one stage: their sum of busy).
        std::map<std::pair<int, int>, std::pair<double, double>> per_stage;  // busy, span
        for (const LaneActivity& l : result->mapped.lanes) {
          if (l.stage < 0 || l.units == 0) continue;
          auto& [busy, span] = per_stage[{l.replica, l.stage}];
          busy = std::max(busy, l.busy_us);
          span = std::max(span, l.span_us);
        }
        QStringList lanes;
        for (const auto& [key, v] : per_stage)
          lanes << tr("r%1 s%2 busy %3 (idle %4)")
                       .arg(key.first)
                       .arg(key.second)
                       .arg(trace_duration_text(v.first * 1e-6))
                       .arg(formatPercent(v.second > 0 ? 1.0 - v.first / v.second : 0.0));
        lanes_text_ = lanes.join(QStringLiteral(" · "));
        // core/app's verdict: a run that cannot be of the plan shows no error, in rows of the
        // plan's order instead of the (meaningless) worst first.
        model_->setUnits(result->check, result->mismatch);
        priced_by_ = QString::fromStdString(result->priced_by);
        const int by = result->mismatch.empty() ? SimCheckModel::Error : SimCheckModel::Replica;
        const Qt::SortOrder order =
            result->mismatch.empty() ? Qt::DescendingOrder : Qt::AscendingOrder;
        model_->sort(by, order);
        table_->horizontalHeader()->setSortIndicator(by, order);
        check_ = std::move(result->check);
        message_.clear();
        showSummary();
        emit checked(origin);
      });
}

void SimCheckPanel::showSummary() {
  if (!snapshot_ || !snapshot_->plan) {
    summary_->setText(tr("No simulated plan yet."));
    return;
  }
  if (!run_) {
    summary_->setText(tr("Open a trace of this plan to compare it with the simulation."));
    return;
  }
  if (!check_) {
    summary_->setText(message_);
    summary_->setToolTip({});
    return;
  }
  const TraceCheck& c = *check_;
  if (const QString mismatch = model_->mismatch(); !mismatch.isEmpty()) {
    // No percentage: it would compare two different runs.
    summary_->setText(tr("This trace is not a run of the current plan: %1. No error is computed. "
                         "To measure this plan, write its schedule with `slimpack solve "
                         "--schedule-out schedule.json` and run it with `slimpack-run "
                         "schedule.json --trace-dir run/`, then open run/ (File > Open Run…).")
                          .arg(mismatch));
    summary_->setToolTip(lanes_text_);
    return;
  }
  QString text =
      tr("%1 units matched · MAPE %2 · makespan simulated %3, measured %4 (%5)")
          .arg(c.units.size())
          .arg(formatPercent(c.mape), trace_duration_text(c.simulated_makespan_us * 1e-6),
               trace_duration_text(c.measured_makespan_us * 1e-6), formatPercent(c.makespan_error));
  if (c.only_simulated > 0 || c.only_measured > 0)
    text += tr(" · unmatched: %1 only simulated, %2 only measured")
                .arg(c.only_simulated)
                .arg(c.only_measured);
  if (!c.units.empty()) {
    const UnitComparison& w = c.units.front();
    text += tr(" · worst: r%1 s%2 %3 pack %4 (%5)")
                .arg(w.replica)
                .arg(w.stage)
                .arg(w.pass == Pass::Forward ? tr("forward") : tr("backward"))
                .arg(QString::fromStdString(pack_name(w.pass, w.pack)))
                .arg(formatPercent(w.error));
  }
  if (!priced_by_.isEmpty())
    text += tr(" · priced by %1, not the Configuration panel's model").arg(priced_by_);
  summary_->setText(text);
  summary_->setToolTip(lanes_text_);
}

}  // namespace slimpack::ui
