#include "models/stage_model.h"

#include "models/format.h"

namespace slimpack::ui {

std::vector<StageRow> stage_rows(const SimResult& sim, double cap) {
  std::vector<StageRow> rows;
  for (std::size_t r = 0; r < sim.replicas.size(); ++r) {
    const auto& stages = sim.replicas[r].stages;
    for (std::size_t s = 0; s < stages.size(); ++s)
      rows.push_back({static_cast<int>(r), static_cast<int>(s), stages[s].busy,
                      stages[s].bubble_ratio, stages[s].peak_memory_bytes, cap});
  }
  return rows;
}

namespace {
// The memory left under the cap (negative: over it); 0 when the cap is not modelled.
double headroom(const StageRow& row) {
  return row.cap > 0 ? row.cap - row.peak_memory : 0.0;
}
}  // namespace

StageModel::StageModel(QObject* parent) : TableModel(parent) {
  setColumns({
      {.header = tr("Stage"),
       .display =
           [this](const StageRow& r) {
             return replicas_ ? QStringLiteral("R%1 · S%2").arg(r.replica).arg(r.stage)
                              : QStringLiteral("Stage %1").arg(r.stage);
           },
       .sortValue = [](const StageRow& r) { return r.stage; }},
      {.header = tr("Busy"),
       .display = [this](const StageRow& r) { return formatTime(r.busy, unit_); },
       .sortValue = [](const StageRow& r) { return r.busy; },
       .alignment = kNumberAlignment},
      {.header = tr("Bubble"),
       .display = [](const StageRow& r) { return formatPercent(r.bubble_ratio); },
       .sortValue = [](const StageRow& r) { return r.bubble_ratio; },
       .alignment = kNumberAlignment},
      {.header = tr("Peak memory"),
       .display = [](const StageRow& r) { return formatBytes(r.peak_memory); },
       .sortValue = [](const StageRow& r) { return r.peak_memory; },
       .alignment = kNumberAlignment},
      {.header = tr("Headroom"),
       .display =
           [](const StageRow& r) {
             return r.cap > 0 ? formatBytes(headroom(r)) : QStringLiteral("-");
           },
       .sortValue = [](const StageRow& r) { return headroom(r); },
       .alignment = kNumberAlignment,
       // A stage over the cap reads red where it shows by how much.
       .foreground =
           [](const StageRow& r) {
             return r.cap > 0 && headroom(r) < 0 ? QVariant(warningBrush()) : QVariant();
           }},
  });
}

void StageModel::setSnapshot(const SnapshotPtr& snapshot) {
  resetRows(
      snapshot ? stage_rows(snapshot->sim, snapshot->memory_cap_bytes) : std::vector<StageRow>{},
      [this, &snapshot] {
        unit_ = snapshot ? QString::fromStdString(snapshot->sim.time_unit) : QStringLiteral("s");
        replicas_ = snapshot && snapshot->sim.replicas.size() > 1;
      });
}

}  // namespace slimpack::ui
