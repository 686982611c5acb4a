#pragma once
// The Search tab's table: the solved configurations ranked by tokens/s per GPU (front members
// marked), then the infeasible ones with the limit that binds and the reason, as `slimpack search`
// prints them.
#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "app/search.h"

namespace slimpack::ui {

class SearchModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    Rank,
    P,
    T,
    C,
    D,
    Gpus,
    Slice,
    Recompute,
    Schedule,
    Strategy,
    TokensPerGpu,
    MeanTime,
    P95Time,
    PeakMemory,
    Status,
    ColumnCount
  };
  explicit SearchModel(QObject* parent = nullptr);

  void setResult(std::shared_ptr<const SearchResult> result);
  // The row of `result().rows` shown on a table row (-1 when out of range).
  int resultRow(int tableRow) const;
  int tableRowOf(int resultRow) const;
  const SearchResult* result() const { return result_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // "infeasible: stage memory, stage 0 needs 91.3 GB of 80.0 GB", "pruned by the bounds", "front".
  static QString statusText(const SearchRow& row, bool on_front);

 private:
  std::shared_ptr<const SearchResult> result_;
  std::vector<int> order_;   // result rows in table order
  std::vector<int> rank_;    // per result row: 1-based rank, 0 = not solved
  std::vector<bool> front_;  // per result row
};

}  // namespace slimpack::ui
