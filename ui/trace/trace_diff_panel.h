#pragma once
// TraceDiffPanel: the comparison of run A and run B by event name - the diff table, the controls
// that shape it (category, "Fold digits", "Per step") and the job that computes it (merging the
// ranks and diffing by name runs on a worker, so that filtering or folding a large trace's table
// never blocks the GUI thread). Clicking a row marks its events in both timelines; the row's
// context menu asks to align both runs at its event (alignRequested: the run alignment's job).
// The workspace places the table in its splitter and the controls in its bar.
#include <QObject>
#include <QString>

#include "trace/trace_compare.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class JobTracker;
class TraceDiffModel;
class TraceLoader;
class TimelineStack;

class TraceDiffPanel : public QObject {
  Q_OBJECT

 public:
  // The runs come from `loader`; a row's events are marked on the stacked timelines (`stack`).
  TraceDiffPanel(const TraceLoader& loader, TimelineStack& stack, QObject* parent = nullptr);

  TraceDiffModel* model() const { return diff_; }
  QTableView* table() const { return table_; }
  QComboBox* categoryBox() const { return category_; }
  QCheckBox* foldBox() const { return fold_; }
  QCheckBox* perStepBox() const { return per_step_; }
  JobTracker& jobs() const { return *jobs_; }

  // Shows the table and its controls while two runs are compared.
  void setShown(bool on);
  // New runs: the table of every category (the fold and per-step options kept); none when the
  // loader holds no run B.
  void restart();
  // Recomputes the table with this category ("" = all) and fold option on a worker.
  void requestDiff(const QString& category, bool fold_digits);
  // Marks the events of row `row` (after sorting) in both timelines.
  void highlightRow(int row);
  // The name of the selected row; empty when none.
  QString currentName() const;

 signals:
  void alignRequested(const QString& event);
  // A row's events were marked: how many in each run, and a line for the tab's status.
  void rowMarked(int in_a, int in_b, const QString& message);

 private:
  void setUpControls();
  void setUpTable();
  void connectControls();
  void startDiff(TraceCompareOptions options, bool refill_categories);

  const TraceLoader& loader_;
  TimelineStack& stack_;
  TraceDiffModel* diff_;
  QTableView* table_;
  QComboBox* category_;
  QCheckBox* fold_;
  QCheckBox* per_step_;  // the table per profiler step (HTA's view) or over the whole runs
  JobTracker* jobs_;
};

}  // namespace slimpack::ui
