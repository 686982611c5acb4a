#include "models/compare_model.h"

#include "models/format.h"

namespace slimpack::ui {

std::vector<CompareRow> compare_rows(const std::vector<CompareEntry>& entries) {
  // Speed-ups and the baseline come from core/app/compare.cpp, as in `slimpack compare`.
  std::vector<CompareRow> rows;
  for (const auto& e : entries) {
    CompareRow row;
    row.strategy = QString::fromStdString(e.strategy);
    if (!e.solved()) {
      row.error = readableMessage(e.reason);
      row.outcome = e.outcome;
      row.limit = e.limit;
      rows.push_back(row);
      continue;
    }
    row.iteration_time = e.sim->iteration_time;
    row.speedup = e.speedup.value_or(0.0);
    row.baseline = e.baseline;
    row.bubble_ratio = e.sim->bubble_ratio;
    row.peak_memory = e.sim->peak_memory_bytes;
    rows.push_back(row);
  }
  return rows;
}

namespace {
// What a stage over the memory cap needs (0 when the row did not fail on stage memory).
double needed_bytes(const CompareRow& row) {
  return row.limit && row.limit->limit == Limit::StageMemory && row.limit->stage >= 0
             ? row.limit->needed
             : 0.0;
}

bool failed(const CompareRow& row) {
  return !row.error.isEmpty();
}
}  // namespace

CompareModel::CompareModel(QObject* parent) : TableModel(parent) {
  // A failed row says why on every cell and reads red; its numbers are meaningless, so its cells
  // hold the reason instead (the last column stretches), not only the tooltip.
  setRowTooltip([](const CompareRow& r) { return failed(r) ? QVariant(r.error) : QVariant(); });
  setRowForeground(
      [](const CompareRow& r) { return failed(r) ? QVariant(warningBrush()) : QVariant(); });
  setColumns({
      {.header = tr("Strategy"),
       .display = [](const CompareRow& r) { return r.strategy; },
       .sortValue = [](const CompareRow& r) { return r.strategy; }},
      {.header = tr("Iteration time"),
       .display = [this](const CompareRow& r) -> QVariant {
         if (!failed(r)) return formatTime(r.iteration_time, unit_);
         return r.outcome == RowOutcome::NotApplicable ? tr("not applicable") : tr("infeasible");
       },
       .sortValue = [](const CompareRow& r) { return r.iteration_time; },
       .alignment = kNumberAlignment},
      {.header = tr("Speed-up"),
       .display = [](const CompareRow& r) -> QVariant {
         if (failed(r)) return r.error;
         return formatRatio(r.speedup) + (r.baseline ? tr(" (baseline)") : QString());
       },
       .sortValue = [](const CompareRow& r) { return r.speedup; },
       .alignment = kNumberAlignment,
       .headerTooltip =
           tr("Iteration time of the first strategy that solved (the baseline) over this one's")},
      {.header = tr("Bubble"),
       .display = [](const CompareRow& r) -> QVariant {
         return failed(r) ? QString() : formatPercent(r.bubble_ratio);
       },
       .sortValue = [](const CompareRow& r) { return r.bubble_ratio; },
       .alignment = kNumberAlignment},
      {.header = tr("Peak memory"),
       .display = [](const CompareRow& r) -> QVariant {
         if (!failed(r)) return formatBytes(r.peak_memory);
         if (needed_bytes(r) <= 0.0) return QString();
         return tr("needs %1 (stage %2)").arg(formatBytes(needed_bytes(r))).arg(r.limit->stage);
       },
       .sortValue = [](const CompareRow& r) { return failed(r) ? needed_bytes(r) : r.peak_memory; },
       .alignment = kNumberAlignment},
  });
}

void CompareModel::setEntries(const std::vector<CompareEntry>& entries) {
  resetRows(compare_rows(entries), [this, &entries] {
    unit_ = QStringLiteral("s");
    for (const auto& e : entries)
      if (e.sim) unit_ = QString::fromStdString(e.sim->time_unit);
  });
}

}  // namespace slimpack::ui
