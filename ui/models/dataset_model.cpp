#include "models/dataset_model.h"

#include "models/format.h"

namespace slimpack::ui {
namespace {

using R = const DatasetTableRow&;

}  // namespace

DatasetModel::DatasetModel(QObject* parent) : TableModel(parent) {
  setRowTooltip([](R r) -> QVariant {
    const DatasetStrategy& s = r.s();
    if (s.first_infeasible < 0) return {};
    return tr("first not solved, %1: %2")
        .arg(QString::fromStdString(dataset_batch_name(*r.result, s.first_infeasible)),
             readableMessage(s.first_reason, 400));
  });
  // A figure over the solved batches; empty when the strategy solved none.
  auto spread = [](const QString& header, auto pick, auto format) {
    return ColumnSpec{.header = header,
                      .display = [pick, format](R r) -> QVariant {
                        const auto v = pick(r.s());
                        return v ? format(*v) : QString();
                      },
                      .sortValue = [pick](R r) -> QVariant {
                        const auto v = pick(r.s());
                        return v ? QVariant(*v) : QVariant();
                      },
                      .alignment = kNumberAlignment};
  };
  auto field = [](auto member, auto which) {
    return [member, which](const DatasetStrategy& s) -> std::optional<double> {
      const std::optional<Spread>& v = s.*member;
      if (!v) return std::nullopt;
      return (*v).*which;
    };
  };
  const auto time = [](double v) { return formatTime(v); };
  const auto bytes = [](double v) { return formatBytes(v); };
  setColumns({
      {.header = tr("Strategy"),
       .display = [](R r) -> QVariant { return QString::fromStdString(r.s().strategy); }},
      spread(tr("Iteration median"), field(&DatasetStrategy::iteration_s, &Spread::median), time),
      spread(tr("p95"), field(&DatasetStrategy::iteration_s, &Spread::p95), time),
      spread(tr("max"), field(&DatasetStrategy::iteration_s, &Spread::max), time),
      spread(
          tr("Speed-up"), [](const DatasetStrategy& s) { return s.speedup; },
          [](double v) { return formatRatio(v); }),
      spread(tr("Peak memory median"), field(&DatasetStrategy::peak_memory_bytes, &Spread::median),
             bytes),
      spread(tr("max"), field(&DatasetStrategy::peak_memory_bytes, &Spread::max), bytes),
      spread(tr("Solver median"), field(&DatasetStrategy::solver_s, &Spread::median), time),
      spread(tr("p95"), field(&DatasetStrategy::solver_s, &Spread::p95), time),
      {.header = tr("Worst batch"),
       .display = [](R r) -> QVariant {
         const int w = r.s().worst_batch;
         return w >= 0 ? QString::fromStdString(dataset_batch_name(*r.result, w)) : QString();
       },
       .headerTooltip = tr("Double-click a row to show its worst batch in the Gantt")},
      {.header = tr("Not solved"),
       .display = [](R r) -> QVariant {
         return r.s().infeasible > 0 ? QVariant(r.s().infeasible) : QVariant();
       },
       .alignment = kNumberAlignment,
       .foreground = [](R r) -> QVariant {
         return r.s().infeasible > 0 ? QVariant(warningBrush()) : QVariant();
       }},
  });
}

void DatasetModel::setResult(std::shared_ptr<const DatasetResult> result) {
  std::vector<DatasetTableRow> rows;
  if (result)
    for (std::size_t i = 0; i < result->strategies.size(); ++i)
      rows.push_back({result.get(), static_cast<int>(i)});
  resetRows(std::move(rows), [&] { result_ = std::move(result); });
}

}  // namespace slimpack::ui
