#pragma once
// Two-column table (metric, value) of one snapshot: iteration time, throughput, MFU, bubble, peak
// memory against the cap, and the solver's statistics. A thin adapter: rows are computed once per
// snapshot by metric_rows() and the model only serves them.
#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"

namespace slimpack::ui {

struct MetricRow {
  QString name;
  QString value;
  QString tooltip;
  bool warning = false;  // e.g. peak memory over the cap, illegal plan
};

std::vector<MetricRow> metric_rows(const ExplorerSnapshot& snapshot);

// Why the strategy ended at its S when S was left on auto ("" when S was set by hand or the
// strategy does not slice).
QString autoSliceReason(const ExplorerSnapshot& snapshot);
// "Interleaved fell back to 1F1B: ..." when the interleaved schedule was asked for but a
// replica's forward pack count is not a multiple of p (that replica runs 1F1B); "" otherwise.
QString interleavedFallback(const ExplorerSnapshot& snapshot);

class MetricsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Value, ColumnCount };
  explicit MetricsModel(QObject* parent = nullptr);

  void setSnapshot(const SnapshotPtr& snapshot);
  const std::vector<MetricRow>& rows() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<MetricRow> rows_;
};

}  // namespace slimpack::ui
