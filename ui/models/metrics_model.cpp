#include "models/metrics_model.h"

#include "models/format.h"
#include "plan/schedule_order.h"
#include "solver/strategy.h"

namespace slimpack::ui {

QString autoSliceReason(const ExplorerSnapshot& s) {
  if (s.config.slice_size > 0 || !s.plan || s.plan->slice_size <= 0 || !s.plan_file.empty())
    return {};
  const auto info = strategy_info(s.config.strategy);
  if (info && info->searches_candidates) {
    const QString chosen = QString::fromStdString(s.solve_stats.chosen_candidate);
    const QString compared = QString::fromStdString(s.solve_stats.compared);
    return QObject::tr("the fastest simulated candidate%1%2")
        .arg(chosen.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(chosen),
             compared.isEmpty() ? QString() : QObject::tr(" of %1").arg(compared));
  }
  return QObject::tr("the %1 strategy's default S").arg(QString::fromStdString(s.config.strategy));
}

QString interleavedFallback(const ExplorerSnapshot& s) {
  if (!s.plan || s.plan->schedule != ScheduleKind::Interleaved) return {};
  const Plan& plan = *s.plan;
  // The rule is core's (plan/schedule_order.h), the one the simulator's stage order follows.
  QStringList replicas;
  InterleavedFallback why = InterleavedFallback::None;
  int mf = 0, mb = 0;
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    const int f = static_cast<int>(plan.replicas[r].forward.size());
    const int b = static_cast<int>(plan.replicas[r].backward.size());
    const InterleavedFallback w = interleaved_fallback(plan.stages, f, b, plan.vchunks);
    if (w == InterleavedFallback::None) continue;
    if (replicas.isEmpty()) {
      why = w;
      mf = f;
      mb = b;
    }
    replicas << QString::number(r);
  }
  if (replicas.isEmpty()) return {};
  const QString who = plan.replicas.size() == 1
                          ? QObject::tr("the plan")
                          : QObject::tr("replica %1").arg(replicas.join(QStringLiteral(", ")));
  QString rule;
  switch (why) {
    case InterleavedFallback::None:
      break;
    case InterleavedFallback::OneChunk:
      rule = QObject::tr("it needs v ≥ 2 virtual chunks per stage; v = %1").arg(plan.vchunks);
      break;
    case InterleavedFallback::UnequalPacks:
      rule = QObject::tr(
                 "it needs as many backward packs as forward packs; %1 has %2 forward and "
                 "%3 backward packs")
                 .arg(who)
                 .arg(mf)
                 .arg(mb);
      break;
    case InterleavedFallback::NotMultipleOfStages:
      rule = QObject::tr("it needs a multiple of p = %1 packs; %2 has %3 forward packs")
                 .arg(plan.stages)
                 .arg(who)
                 .arg(mf);
      break;
  }
  return QObject::tr("Interleaved fell back to 1F1B: %1").arg(rule);
}

namespace {

// "9.31 s (−2.1 % vs previous)", with the previous value in the tooltip.
void addChange(MetricRow& row, double now, double before, const QString& before_text) {
  const QString change = formatChange(now, before);
  if (change.isEmpty()) return;
  row.value += QStringLiteral(" (%1)").arg(change);
  row.tooltip += (row.tooltip.isEmpty() ? QString() : QStringLiteral("\n")) +
                 QObject::tr("Previous result: %1").arg(before_text);
}

}  // namespace

std::vector<MetricRow> metric_rows(const ExplorerSnapshot& s, const ExplorerSnapshot* previous) {
  std::vector<MetricRow> rows = metric_rows(s);
  if (!previous || previous == &s || previous->sim.time_unit != s.sim.time_unit) return rows;
  const SimResult& r = s.sim;
  const SimResult& p = previous->sim;
  const QString unit = QString::fromStdString(r.time_unit);
  for (MetricRow& row : rows) {
    if (row.name == QObject::tr("Iteration time"))
      addChange(row, r.iteration_time, p.iteration_time, formatTime(p.iteration_time, unit));
    else if (row.name == QObject::tr("Throughput") && r.tokens_per_second > 0)
      addChange(row, r.tokens_per_second, p.tokens_per_second, formatRate(p.tokens_per_second));
    else if (row.name == QObject::tr("Bubble ratio"))
      addChange(row, r.bubble_ratio, p.bubble_ratio, formatPercent(p.bubble_ratio));
    else if (row.name == QObject::tr("Peak memory") && r.peak_memory_bytes > 0)
      addChange(row, r.peak_memory_bytes, p.peak_memory_bytes, formatBytes(p.peak_memory_bytes));
  }
  return rows;
}

std::vector<MetricRow> metric_rows(const ExplorerSnapshot& s) {
  const SimResult& r = s.sim;
  const QString unit = QString::fromStdString(r.time_unit);
  std::vector<MetricRow> rows;
  auto add = [&rows](QString name, QString value, QString tip = {}, bool warn = false) {
    rows.push_back({std::move(name), std::move(value), std::move(tip), warn});
  };
  add(QObject::tr("Strategy"), QString::fromStdString(s.plan ? s.plan->strategy : std::string()));
  add(QObject::tr("Iteration time"), formatTime(r.iteration_time, unit),
      QObject::tr("Slowest replica including DP gradient sync and optimizer step"));
  add(QObject::tr("Makespan"), formatTime(r.makespan, unit),
      QObject::tr("End of the last backward pack, before DP sync"));
  add(QObject::tr("Throughput"), r.tokens_per_second > 0 ? formatRate(r.tokens_per_second) : "-");
  add(QObject::tr("MFU"), r.mfu > 0 ? formatPercent(r.mfu) : QStringLiteral("-"),
      QObject::tr("Model FLOPs per second over the peak of all GPUs"));
  add(QObject::tr("Bubble ratio"), formatPercent(r.bubble_ratio),
      QObject::tr("1 - busy time / (stages x makespan), averaged over replicas"));
  const bool over = s.memory_cap_bytes > 0 && r.peak_memory_bytes > s.memory_cap_bytes;
  add(QObject::tr("Peak memory"),
      s.memory_cap_bytes <= 0 && r.peak_memory_bytes <= 0 ? QObject::tr("not modelled")
      : s.memory_cap_bytes > 0
          ? formatBytes(r.peak_memory_bytes) + " / " + formatBytes(s.memory_cap_bytes)
          : formatBytes(r.peak_memory_bytes),
      QObject::tr("Highest stage peak against the memory cap"), over);
  add(QObject::tr("Legal"), r.legal ? QObject::tr("yes") : QObject::tr("no"),
      QString::fromStdString(r.legality_message), !r.legal);
  if (s.plan) {
    int mf = 0, mb = 0;
    for (const auto& rep : s.plan->replicas) {
      mf += static_cast<int>(rep.forward.size());
      mb += static_cast<int>(rep.backward.size());
    }
    add(QObject::tr("Packs (F / B)"), QStringLiteral("%1 / %2").arg(mf).arg(mb),
        QObject::tr("Forward and backward MicroPacks over all replicas"));
    const QString why = autoSliceReason(s);
    add(QObject::tr("Slice size"),
        s.plan->slice_size > 0
            ? formatTokens(double(s.plan->slice_size)) + (why.isEmpty() ? QString() : " (auto)")
            : QObject::tr("none"),
        why.isEmpty() ? QString() : QObject::tr("Chosen automatically: %1").arg(why));
    const QString fallback = interleavedFallback(s);
    add(QObject::tr("Schedule"),
        fallback.isEmpty() ? QString::fromLatin1(schedule_name(s.plan->schedule))
                           : QObject::tr("1F1B (interleaved fell back)"),
        fallback, !fallback.isEmpty());
  }
  if (!s.config.cost_profile_file.empty())
    add(QObject::tr("Costs"), QObject::tr("fitted profile, as measured"),
        QObject::tr("The profile's per-layer times replace the built-in coefficients as they "
                    "were measured (on the profile's device and t): the t and GPU settings here "
                    "no longer scale them, so times can differ a lot from the built-in "
                    "estimate."));
  add(QObject::tr("Sequences"), formatTokens(double(s.batch_stats.count)));
  add(QObject::tr("Batch tokens"), formatTokens(double(s.batch_stats.total_tokens)));
  if (s.plan_file.empty()) {
    const SolveStats& st = s.solve_stats;
    add(QObject::tr("Solver time"), formatTime(st.total_seconds));
    for (const auto& [phase, secs] : st.phase_seconds)
      add(QObject::tr("  %1").arg(QString::fromStdString(phase)), formatTime(secs));
    add(QObject::tr("Candidates"), QString::number(st.candidates),
        QObject::tr("Candidate settings the solver simulated"));
    if (st.objective > 0) {
      add(QObject::tr("Objective / bound"),
          QStringLiteral("%1 / %2").arg(formatTime(st.objective)).arg(formatTime(st.bound)));
      add(QObject::tr("Gap"),
          formatPercent(st.gap) + (st.proven_optimal ? QObject::tr(" (optimal)") : QString()));
    }
    if (!st.notes.empty())
      add(QObject::tr("Notes"), readableMessage(st.notes, 80), readableMessage(st.notes, 2000));
  } else {
    add(QObject::tr("Plan file"), QString::fromStdString(s.plan_file));
  }
  return rows;
}

MetricsModel::MetricsModel(QObject* parent) : TableModel(parent) {
  // The tooltip and the warning colour belong to the metric: both cells of its row carry them.
  // Without a tooltip of its own a row shows its whole value there (a narrow dock elides it).
  setRowTooltip([](const MetricRow& r) { return r.tooltip.isEmpty() ? r.value : r.tooltip; });
  setRowForeground(
      [](const MetricRow& r) { return r.warning ? QVariant(warningBrush()) : QVariant(); });
  setColumns({
      {.header = tr("Metric"), .display = [](const MetricRow& r) { return r.name; }},
      {.header = tr("Value"),
       .display = [](const MetricRow& r) { return r.value; },
       .alignment = kNumberAlignment},
  });
}

void MetricsModel::setSnapshot(const SnapshotPtr& snapshot) {
  if (snapshot != current_) {
    if (current_ && snapshot) previous_ = current_;
    current_ = snapshot;
  }
  resetRows(snapshot ? metric_rows(*snapshot, previous_.get()) : std::vector<MetricRow>{});
}

}  // namespace slimpack::ui
