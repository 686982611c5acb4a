#pragma once
// The Traces tab's GPU summary of run A: per rank, the GPU time of the whole trace or of one
// profiler step split into computation, exposed communication, memory copies and idle, with the
// overlap and the idle time by cause (a table), the same split as stacked bars per rank (a chart),
// and the slowest rank of each step. Computed by core/app's summarize_trace_run on a worker,
// the ranks in parallel on the worker pool, as `slimpack trace summary` computes it, so both show
// the same numbers.
#include <QWidget>
#include <memory>
#include <optional>

#include "app/trace_run.h"
#include "app/trace_summary_report.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace slimpack::ui {

class GpuTimeChart;
class JobTracker;

class TraceSummaryPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column {
    Rank,
    File,
    Span,
    Busy,
    Computation,
    Communication,
    Memcpy,
    Idle,
    Overlap,
    IdleHost,
    IdleKernel,
    IdleOther,
    ColumnCount
  };
  // Qt::UserRole of a time cell: its value in microseconds (for sorting and tests).
  static constexpr int MicrosecondsRole = Qt::UserRole;

  explicit TraceSummaryPanel(QWidget* parent = nullptr);

  // Summarises the run's ranks on a worker; null clears the panel.
  void setRun(std::shared_ptr<const TraceRun> run);
  // The window shown: the whole trace (empty) or one profiler step.
  void setStep(std::optional<int> step);
  std::optional<int> step() const { return step_; }

  JobTracker& jobs() const { return *jobs_; }
  // The last summary computed; null before the first or after a failure (message() says why).
  const RunSummary* summary() const { return summary_.get(); }
  QString message() const;
  QTableWidget* table() const { return table_; }
  GpuTimeChart* chart() const { return chart_; }

 signals:
  void summarized();  // a new summary (or failure) is shown

 private:
  void show(std::shared_ptr<const RunSummary> summary);
  void fill();

  QComboBox* steps_;
  QTableWidget* table_;
  GpuTimeChart* chart_;
  QLabel* message_;
  JobTracker* jobs_;
  std::shared_ptr<const RunSummary> summary_;
  std::optional<int> step_;
};

}  // namespace slimpack::ui
