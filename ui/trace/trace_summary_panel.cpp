#include "trace/trace_summary_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

#include "charts/gpu_time_chart.h"
#include "jobs/job_tracker.h"
#include "jobs/qt_task_pool.h"
#include "models/format.h"

namespace slimpack::ui {
namespace {

// The breakdown of `r` in the panel's window, or null when the rank has no such step.
const GpuTimeBreakdown* window_of(const RankSummary& r, std::optional<int> step) {
  if (!r.no_gpu.empty()) return nullptr;
  if (!step) return &r.summary.total;
  for (const GpuTimeBreakdown& b : r.summary.steps)
    if (b.step == step) return &b;
  return nullptr;
}

QTableWidgetItem* time_item(double us) {
  auto* item = new QTableWidgetItem(formatTime(us * 1e-6));
  item->setData(TraceSummaryPanel::MicrosecondsRole, us);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

TraceSummaryPanel::TraceSummaryPanel(QWidget* parent)
    : QWidget(parent),
      steps_(new QComboBox),
      table_(new QTableWidget(0, ColumnCount)),
      chart_(new GpuTimeChart),
      message_(new QLabel),
      jobs_(new JobTracker(this)) {
  setObjectName(QStringLiteral("traceSummaryPanel"));
  steps_->setObjectName(QStringLiteral("traceSummaryStep"));
  steps_->setToolTip(tr("The whole trace, or one profiler step (ProfilerStep#N)"));
  table_->setObjectName(QStringLiteral("traceSummaryTable"));
  table_->setHorizontalHeaderLabels({tr("Rank"), tr("File"), tr("Span"), tr("GPU busy"),
                                     tr("Computation"), tr("Communication"), tr("Memcpy"),
                                     tr("Idle"), tr("Overlap"), tr("Idle: host"),
                                     tr("Idle: kernel"), tr("Idle: other")});
  table_->horizontalHeaderItem(Communication)
      ->setToolTip(tr("Communication not hidden under computation"));
  table_->horizontalHeaderItem(Overlap)->setToolTip(tr("Communication hidden under computation"));
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  message_->setWordWrap(true);
  message_->setObjectName(QStringLiteral("traceSummaryMessage"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("GPU time per rank:")));
  bar->addWidget(steps_);
  bar->addWidget(message_, 1);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(table_);
  split->addWidget(chart_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(split, 1);
  connect(steps_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const QVariant v = steps_->itemData(index);
    setStep(v.isValid() ? std::optional<int>(v.toInt()) : std::nullopt);
  });
}

QString TraceSummaryPanel::message() const {
  return message_->text();
}

void TraceSummaryPanel::setRun(std::shared_ptr<const TraceRun> run) {
  if (!run) {
    jobs_->cancel();
    show(nullptr);
    return;
  }
  message_->setText(tr("summarising…"));
  jobs_->start(
      tr("Summarising GPU time"),
      [run](const CancelToken& cancel, ProgressSink& progress) -> Expected<RunSummary> {
        // The ranks at once on the explorer's workers (this job runs one of them itself).
        QtTaskPool pool(JobTracker::workerPool());
        return summarize_trace_run(*run, {}, cancel, progress, pool);
      },
      [this](Expected<RunSummary> result) {
        if (!result) {
          if (result.error().kind == ErrorKind::Cancelled) return;
          show(nullptr);
          message_->setText(readableMessage(result.error().message));
          emit summarized();
          return;
        }
        show(std::make_shared<const RunSummary>(std::move(*result)));
        emit summarized();
      });
}

void TraceSummaryPanel::show(std::shared_ptr<const RunSummary> summary) {
  summary_ = std::move(summary);
  std::set<int> steps;
  if (summary_)
    for (const RankSummary& r : summary_->ranks)
      for (const GpuTimeBreakdown& b : r.summary.steps) steps.insert(*b.step);
  {
    const QSignalBlocker block(steps_);
    steps_->clear();
    steps_->addItem(tr("Whole trace"));
    for (int s : steps) steps_->addItem(tr("Step #%1").arg(s), s);
    if (step_ && !steps.count(*step_)) step_.reset();
    steps_->setCurrentIndex(step_ ? steps_->findData(*step_) : 0);
  }
  fill();
}

void TraceSummaryPanel::setStep(std::optional<int> step) {
  step_ = step;
  const int index = step ? steps_->findData(*step) : 0;
  if (index >= 0 && index != steps_->currentIndex()) {
    const QSignalBlocker block(steps_);
    steps_->setCurrentIndex(index);
  }
  fill();
}

void TraceSummaryPanel::fill() {
  table_->setRowCount(0);
  QStringList labels;
  std::vector<GpuTimeBreakdown> bars;
  QString note;
  if (summary_) {
    table_->setRowCount(static_cast<int>(summary_->ranks.size()));
    int row = 0;
    for (const RankSummary& r : summary_->ranks) {
      auto* rank = new QTableWidgetItem(QString::number(r.rank));
      rank->setData(MicrosecondsRole, r.rank);
      table_->setItem(row, Rank, rank);
      table_->setItem(row, File, new QTableWidgetItem(QString::fromStdString(r.label)));
      const GpuTimeBreakdown* b = window_of(r, step_);
      if (b) {
        const double values[] = {
            b->span_us, b->gpu_busy_us, b->computation_us, b->communication_us, b->memcpy_us,
            b->idle_us, b->overlap_us,  b->idle_host_us,   b->idle_kernel_us,   b->idle_other_us};
        for (int c = Span; c < ColumnCount; ++c)
          table_->setItem(row, c, time_item(values[c - Span]));
        labels << tr("rank %1").arg(r.rank);
        bars.push_back(*b);
      } else {
        const QString why = !r.no_gpu.empty() ? tr("no GPU operation") : tr("no such step");
        table_->setItem(row, Span, new QTableWidgetItem(why));
      }
      ++row;
    }
    for (const StragglerStep& s : summary_->stragglers)
      if (!step_ || *step_ == s.step)
        note += (note.isEmpty() ? tr("slowest: ") : QStringLiteral(", ")) +
                tr("step %1 rank %2 (+%3)")
                    .arg(s.step)
                    .arg(s.slowest_rank)
                    .arg(formatTime(s.spread_us * 1e-6));
  }
  chart_->setBreakdowns(labels, bars);
  message_->setText(note);
}

}  // namespace slimpack::ui
