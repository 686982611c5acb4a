#include "models/search_model.h"

#include "models/format.h"

namespace slimpack::ui {

namespace {

// The ranked rows first (best first), then the infeasible ones in result order.
std::vector<SearchTableRow> table_rows(const SearchResult& result) {
  std::vector<bool> front(result.rows.size(), false);
  for (int f : result.front) front[static_cast<std::size_t>(f)] = true;
  std::vector<SearchTableRow> rows;
  auto add = [&](int r, int rank) {
    rows.push_back(
        {r, &result.rows[static_cast<std::size_t>(r)], rank, front[static_cast<std::size_t>(r)]});
  };
  for (std::size_t r = 0; r < result.ranking.size(); ++r)
    add(result.ranking[r], static_cast<int>(r) + 1);
  for (std::size_t i = 0; i < result.rows.size(); ++i)
    if (result.rows[i].status == SearchStatus::Infeasible) add(static_cast<int>(i), 0);
  return rows;
}

bool solved(const SearchTableRow& r) {
  return r.row->status == SearchStatus::Solved;
}

}  // namespace

SearchModel::SearchModel(QObject* parent) : TableModel(parent) {
  setRowTooltip([](const SearchTableRow& r) {
    QString tip = QString::fromStdString(config_label(r.row->config));
    if (r.row->status == SearchStatus::Infeasible)
      tip += QStringLiteral("\n") + readableMessage(r.row->reason, 400);
    return tip;
  });
  // Configuration words read left-aligned, numbers and the status right-aligned.
  constexpr Qt::Alignment kWords = Qt::AlignLeft | Qt::AlignVCenter;
  auto config = [](const QString& header, Qt::Alignment alignment, auto field) {
    return ColumnSpec{
        .header = header,
        .display = [field](const SearchTableRow& r) -> QVariant { return field(r.row->config); },
        .alignment = alignment};
  };
  // A figure of a solved configuration; the others leave the cell empty.
  auto figure = [](const QString& header, auto format) {
    return ColumnSpec{.header = header,
                      .display = [format](const SearchTableRow& r) -> QVariant {
                        return solved(r) ? format(*r.row) : QString();
                      },
                      .alignment = kNumberAlignment};
  };
  using C = const SearchConfig&;
  using R = const SearchRow&;
  setColumns({
      {.header = tr("Rank"),
       .display = [](const SearchTableRow& r) { return solved(r) ? QVariant(r.rank) : QVariant(); },
       .alignment = kNumberAlignment},
      config(tr("p"), kNumberAlignment, [](C c) { return c.p; }),
      config(tr("t"), kNumberAlignment, [](C c) { return c.t; }),
      config(tr("c"), kNumberAlignment, [](C c) { return c.c; }),
      config(tr("d"), kNumberAlignment, [](C c) { return c.d; }),
      config(tr("GPUs"), kNumberAlignment, [](C c) { return c.gpus(); }),
      config(tr("S"), kNumberAlignment,
             [](C c) { return c.slice > 0 ? formatTokens(double(c.slice)) : tr("auto"); }),
      config(tr("Recompute"), kWords,
             [](C c) { return QString::fromStdString(recompute_name(c.recompute)); }),
      config(tr("Schedule"), kWords,
             [](C c) { return QString::fromUtf8(schedule_name(c.schedule)); }),
      config(tr("Strategy"), kWords, [](C c) { return QString::fromStdString(c.strategy); }),
      figure(tr("Tokens/s per GPU"),
             [](R row) { return formatRate(row.tokens_per_second_per_gpu); }),
      figure(tr("Mean iteration"), [](R row) { return formatTime(row.mean_iteration_time); }),
      figure(tr("p95 iteration"), [](R row) { return formatTime(row.p95_iteration_time); }),
      figure(tr("Peak memory"), [](R row) { return formatBytes(row.peak_memory_bytes); }),
      {.header = tr("Front / why not"),
       .display = [](const SearchTableRow& r) -> QVariant { return statusText(*r.row, r.front); },
       .alignment = kNumberAlignment},
  });
}

void SearchModel::setResult(std::shared_ptr<const SearchResult> result) {
  std::vector<SearchTableRow> rows = result ? table_rows(*result) : std::vector<SearchTableRow>{};
  resetRows(std::move(rows), [this, &result] { result_ = std::move(result); });
}

int SearchModel::resultRow(int tableRow) const {
  return tableRow >= 0 && tableRow < rowCount() ? row(tableRow).result_row : -1;
}

int SearchModel::tableRowOf(int resultRow) const {
  for (int i = 0; i < rowCount(); ++i)
    if (row(i).result_row == resultRow) return i;
  return -1;
}

QString SearchModel::statusText(const SearchRow& row, bool on_front) {
  switch (row.status) {
    case SearchStatus::Solved:
      return on_front ? tr("front") : QString();
    case SearchStatus::Pruned:
      return tr("pruned by the bounds");
    case SearchStatus::Infeasible:
      break;
  }
  if (!row.limit) return tr("not valid: %1").arg(readableMessage(row.reason, 200));
  const InfeasibleDetail& l = *row.limit;
  QString text = tr("infeasible: %1").arg(QString::fromUtf8(limit_name(l.limit)));
  if (l.stage >= 0) text += tr(", stage %1").arg(l.stage);
  if (l.limit == Limit::StageMemory || l.limit == Limit::StaticMemory)
    text += tr(" needs %1 of %2").arg(formatBytes(l.needed), formatBytes(l.cap));
  if (l.limit == Limit::TokenCap)
    text += tr(" needs %1 of %2 tokens").arg(formatTokens(l.needed), formatTokens(l.cap));
  return text;
}

}  // namespace slimpack::ui
