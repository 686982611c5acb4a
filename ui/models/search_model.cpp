#include "models/search_model.h"

#include "models/format.h"

namespace slimpack::ui {

SearchModel::SearchModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchModel::setResult(std::shared_ptr<const SearchResult> result) {
  beginResetModel();
  result_ = std::move(result);
  order_.clear();
  rank_.clear();
  front_.clear();
  if (result_) {
    const auto n = result_->rows.size();
    rank_.assign(n, 0);
    front_.assign(n, false);
    for (std::size_t r = 0; r < result_->ranking.size(); ++r) {
      order_.push_back(result_->ranking[r]);
      rank_[static_cast<std::size_t>(result_->ranking[r])] = static_cast<int>(r) + 1;
    }
    for (int f : result_->front) front_[static_cast<std::size_t>(f)] = true;
    for (std::size_t i = 0; i < n; ++i)
      if (result_->rows[i].status == SearchStatus::Infeasible)
        order_.push_back(static_cast<int>(i));
  }
  endResetModel();
}

int SearchModel::resultRow(int tableRow) const {
  return tableRow >= 0 && tableRow < static_cast<int>(order_.size())
             ? order_[static_cast<std::size_t>(tableRow)]
             : -1;
}

int SearchModel::tableRowOf(int resultRow) const {
  for (std::size_t i = 0; i < order_.size(); ++i)
    if (order_[i] == resultRow) return static_cast<int>(i);
  return -1;
}

int SearchModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(order_.size());
}

int SearchModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
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

QVariant SearchModel::data(const QModelIndex& index, int role) const {
  const int r = resultRow(index.row());
  if (!result_ || r < 0) return {};
  const SearchRow& row = result_->rows[static_cast<std::size_t>(r)];
  const SearchConfig& c = row.config;
  const bool solved = row.status == SearchStatus::Solved;
  if (role == Qt::ToolTipRole) {
    QString tip = QString::fromStdString(config_label(c));
    if (row.status == SearchStatus::Infeasible)
      tip += QStringLiteral("\n") + readableMessage(row.reason, 400);
    return tip;
  }
  if (role == Qt::TextAlignmentRole)
    return index.column() >= Recompute && index.column() <= Strategy
               ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Rank:
      return solved ? QVariant(rank_[static_cast<std::size_t>(r)]) : QVariant();
    case P:
      return c.p;
    case T:
      return c.t;
    case C:
      return c.c;
    case D:
      return c.d;
    case Gpus:
      return c.gpus();
    case Slice:
      return c.slice > 0 ? formatTokens(double(c.slice)) : tr("auto");
    case Recompute:
      return QString::fromStdString(recompute_name(c.recompute));
    case Schedule:
      return QString::fromUtf8(schedule_name(c.schedule));
    case Strategy:
      return QString::fromStdString(c.strategy);
    case TokensPerGpu:
      return solved ? formatRate(row.tokens_per_second_per_gpu) : QString();
    case MeanTime:
      return solved ? formatTime(row.mean_iteration_time) : QString();
    case P95Time:
      return solved ? formatTime(row.p95_iteration_time) : QString();
    case PeakMemory:
      return solved ? formatBytes(row.peak_memory_bytes) : QString();
    case Status:
      return statusText(row, front_[static_cast<std::size_t>(r)]);
    default:
      return {};
  }
}

QVariant SearchModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank:
      return tr("Rank");
    case P:
      return tr("p");
    case T:
      return tr("t");
    case C:
      return tr("c");
    case D:
      return tr("d");
    case Gpus:
      return tr("GPUs");
    case Slice:
      return tr("S");
    case Recompute:
      return tr("Recompute");
    case Schedule:
      return tr("Schedule");
    case Strategy:
      return tr("Strategy");
    case TokensPerGpu:
      return tr("Tokens/s per GPU");
    case MeanTime:
      return tr("Mean iteration");
    case P95Time:
      return tr("p95 iteration");
    case PeakMemory:
      return tr("Peak memory");
    case Status:
      return tr("Front / why not");
    default:
      return {};
  }
}

}  // namespace slimpack::ui
