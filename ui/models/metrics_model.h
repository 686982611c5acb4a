#pragma once
// Two-column table (metric, value) of one snapshot: iteration time, throughput, MFU, bubble, peak
// memory against the cap, and the solver's statistics. A thin adapter: rows are computed once per
// snapshot by metric_rows() and the model only serves them.
#include <QString>
#include <vector>

#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"
#include "models/table_model.h"

namespace slimpack::ui {

struct MetricRow {
  QString name;
  QString value;
  QString tooltip;
  bool warning = false;  // e.g. peak memory over the cap, illegal plan
};

// With `previous` (the result before this one), iteration time, throughput, bubble and peak
// memory also say how much better or worse they are: "9.31 s (−2.1 % vs previous)".
std::vector<MetricRow> metric_rows(const ExplorerSnapshot& snapshot);
std::vector<MetricRow> metric_rows(const ExplorerSnapshot& snapshot,
                                   const ExplorerSnapshot* previous);

// Why the strategy ended at its S when S was left on auto ("" when S was set by hand or the
// strategy does not slice).
QString autoSliceReason(const ExplorerSnapshot& snapshot);
// "Interleaved fell back to 1F1B: ..." when the interleaved schedule was asked for but a
// replica's forward pack count is not a multiple of p (that replica runs 1F1B); "" otherwise.
QString interleavedFallback(const ExplorerSnapshot& snapshot);

class MetricsModel : public TableModel<MetricRow> {
  Q_OBJECT
 public:
  enum Column { Name, Value, ColumnCount };
  explicit MetricsModel(QObject* parent = nullptr);

  // A new snapshot: the one shown so far becomes the previous result the deltas refer to.
  void setSnapshot(const SnapshotPtr& snapshot);

 private:
  SnapshotPtr current_;
  SnapshotPtr previous_;
};

}  // namespace slimpack::ui
