#pragma once
// The diff table of two runs by event name (core/app/run_compare.h, core/trace/trace_compare.h):
// name, count and total
// duration in A and in B, the delta and a status. Sortable by any column (numbers sort as
// numbers), filterable by category and with the fold-digits option; both recompute the
// comparison, which is one pass over the two traces' events.
#include <QStringList>
#include <memory>

#include "app/run_compare.h"
#include "models/table_model.h"
#include "trace/trace_compare.h"

namespace slimpack::ui {

// The rows are the comparison's names (NameDiff), in the table's current order.
class TraceDiffModel : public TableModel<NameDiff> {
  Q_OBJECT

 public:
  enum Column { Name, CountA, CountB, TotalA, TotalB, Delta, Status, ColumnCount };
  // Qt::UserRole: the raw value (name, integer count or microseconds, status name) for sorting
  // and tests.
  static constexpr int RawRole = Qt::UserRole;

  explicit TraceDiffModel(QObject* parent = nullptr);

  // The two runs to compare (each one trace; a run of several ranks passes its first rank's file
  // or a merged trace). Either may be null: the table is then empty.
  void setTraces(std::shared_ptr<const ImportedTrace> a, std::shared_ptr<const ImportedTrace> b);
  // What setTraces / setCategory / setFoldDigits compute, for a worker (TraceWorkspace runs it as
  // a job on large traces): the comparison under `options` and the categories of both traces.
  struct Result {
    TraceCompareOptions options;
    TraceComparison comparison;
    QStringList categories;
    bool whole_trace = false;                // steps were asked for, a run has none: compared whole
    std::shared_ptr<const ImportedTrace> a;  // the runs merged (a run of one rank: its trace)
    std::shared_ptr<const ImportedTrace> b;
  };
  // Runs of several ranks are merged by core/app's compare_runs, as `slimpack trace compare`
  // merges them: the same numbers for the same runs.
  static Result compute(const std::vector<RankSource>& a, const std::vector<RankSource>& b,
                        TraceCompareOptions options);
  // Two single traces (tests, benchmarks).
  static Result compute(const ImportedTrace* a, const ImportedTrace* b,
                        TraceCompareOptions options);
  // Shows a result computed for `a` and `b` (no recomputation on this thread).
  void setResult(std::shared_ptr<const ImportedTrace> a, std::shared_ptr<const ImportedTrace> b,
                 Result result);
  const TraceCompareOptions& options() const { return options_; }

  // "" = every category.
  void setCategory(const QString& category);
  QString category() const { return QString::fromStdString(options_.category); }
  void setFoldDigits(bool on);
  bool foldDigits() const { return options_.fold_digits; }
  // Categories of the complete events of both traces, sorted.
  QStringList categories() const { return categories_; }

  // The two sides and the note of the comparison; its names are the rows (rows(), row()), so
  // `names` here is empty.
  const TraceComparison& comparison() const { return comparison_; }
  // Per step asked for (options().steps, the default) but a run has no profiler step.
  bool comparedWhole() const { return whole_trace_; }

  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

 private:
  void recompute();
  // Shows `result` (a reset), keeping the sort the user chose.
  void show(Result result);
  void pickUnits();

  std::shared_ptr<const ImportedTrace> a_;
  std::shared_ptr<const ImportedTrace> b_;
  TraceCompareOptions options_;
  TraceComparison comparison_;
  QStringList categories_;
  bool whole_trace_ = false;
  // Microseconds per display unit of the total and delta columns (1, 1e3 or 1e6): one unit per
  // column, chosen from its largest value.
  double unit_total_ = 1.0;
  double unit_delta_ = 1.0;
  int sort_column_ = -1;
  Qt::SortOrder sort_order_ = Qt::AscendingOrder;
};

}  // namespace slimpack::ui
