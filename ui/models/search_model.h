#pragma once
// The Search tab's table: the solved configurations ranked by tokens/s per GPU (front members
// marked), then the infeasible ones with the limit that binds and the reason, as `slimpack search`
// prints them.
#include <memory>
#include <vector>

#include "app/search.h"
#include "models/table_model.h"

namespace slimpack::ui {

// A table row: one row of a SearchResult, with its place in the ranking.
struct SearchTableRow {
  int result_row = 0;              // index in SearchResult::rows
  const SearchRow* row = nullptr;  // that row, owned by the model's result
  int rank = 0;                    // 1-based, 0 = not solved
  bool front = false;              // on the Pareto front
};

class SearchModel : public TableModel<SearchTableRow> {
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

  // "infeasible: stage memory, stage 0 needs 91.3 GB of 80.0 GB", "pruned by the bounds", "front".
  static QString statusText(const SearchRow& row, bool on_front);

 private:
  std::shared_ptr<const SearchResult> result_;  // keeps the rows' SearchRow alive
};

}  // namespace slimpack::ui
