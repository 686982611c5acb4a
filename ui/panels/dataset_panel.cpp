#include "panels/dataset_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "charts/dataset_chart.h"
#include "jobs/job_tracker.h"
#include "jobs/qt_task_pool.h"
#include "models/dataset_model.h"
#include "models/format.h"
#include "panels/state_frame.h"

namespace slimpack::ui {
namespace {

// The dataset does not depend on the configuration's own strategy: the tab names its strategies.
ConfigSpec withoutStrategy(ConfigSpec c) {
  c.strategy.clear();
  return c;
}

QString defaultStrategies() {
  QStringList names;
  for (const std::string& s : default_compare_strategies()) names << QString::fromStdString(s);
  return names.join(QLatin1Char(','));
}

}  // namespace

DatasetPanel::DatasetPanel(QWidget* parent)
    : QWidget(parent),
      jobs_(new JobTracker(this)),
      chart_(new DatasetChart),
      model_(new DatasetModel(this)),
      table_(new QTableView),
      frame_(nullptr),
      batches_(new QSpinBox),
      strategies_(new QLineEdit(defaultStrategies())),
      run_(new QPushButton(tr("Run"))),
      cancel_(new QPushButton(tr("Cancel"))),
      progress_(new QProgressBar),
      message_(new QLabel) {
  batches_->setRange(0, 4096);
  batches_->setSpecialValueText(tr("all / 16"));
  batches_->setToolTip(
      tr("K: the first K batches of a length file cut by the batch budget, or K "
         "seeded batches of a preset (the lowest value: every batch of the file, "
         "16 of a preset)"));
  strategies_->setToolTip(
      tr("Strategies or variants (fixed:cp=2), comma-separated; the first is "
         "the baseline of the speed-ups"));
  progress_->setRange(0, 1000);
  progress_->setTextVisible(false);
  progress_->setMaximumWidth(200);
  message_->setWordWrap(true);
  cancel_->setEnabled(false);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setToolTip(tr("Double-click a row to show its worst batch in the Gantt"));
  layOut();
  connectSignals();
}

DatasetPanel::~DatasetPanel() = default;

void DatasetPanel::layOut() {
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("batches")));
  controls->addWidget(batches_);
  controls->addWidget(new QLabel(tr("strategies")));
  controls->addWidget(strategies_, 1);
  controls->addWidget(run_);
  controls->addWidget(cancel_);
  controls->addWidget(progress_);
  chart_->setMinimumHeight(240);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(chart_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  frame_ = new StateFrame(split);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(controls);
  layout->addWidget(message_);
  layout->addWidget(frame_, 1);
}

void DatasetPanel::connectSignals() {
  connect(run_, &QPushButton::clicked, this, &DatasetPanel::run);
  connect(strategies_, &QLineEdit::returnPressed, this, [this] {
    if (!jobs_->busy()) run();
  });
  connect(cancel_, &QPushButton::clicked, this, &DatasetPanel::cancel);
  connect(chart_, &DatasetChart::batchClicked, this, &DatasetPanel::chooseBatch);
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    if (result_)
      chooseBatch(result_->strategies[static_cast<std::size_t>(index.row())].worst_batch);
  });
  connect(jobs_, &JobTracker::busyChanged, this, &DatasetPanel::setRunning);
  connect(jobs_, &JobTracker::progress, this, [this](const QString& stage, double f) {
    progress_->setValue(static_cast<int>(f * 1000));
    message_->setText(stage);
  });
}

void DatasetPanel::setBasis(const WorkloadSpec& workload, const ConfigSpec& config) {
  workload_ = workload;
  config_ = config;
  showState();
}

void DatasetPanel::setBatches(int batches) {
  batches_->setValue(batches);
}
void DatasetPanel::setStrategies(const QString& list) {
  strategies_->setText(list);
}
void DatasetPanel::setDark(bool dark) {
  chart_->setDark(dark);
}
QString DatasetPanel::message() const {
  return message_->text();
}

DatasetRequest DatasetPanel::request() const {
  DatasetRequest r;
  r.workload = workload_;
  // The Gantt showing one of the shown result's batches is still that dataset; any other workload
  // is covered whole (an index only picks the batch the main view shows).
  if (result_)
    for (std::size_t b = 0; b < result_->batches.size(); ++b)
      if (workload_ == dataset_batch_workload(*result_, static_cast<int>(b)))
        r.workload = last_request_.workload;
  r.workload.batch_index = -1;
  r.config = config_;
  r.batches = batches_->value();
  for (const QString& s : strategies_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
    r.strategies.push_back(s.trimmed().toStdString());
  return r;
}

// Computing while a run is on; greyed as stale when the explorer's settings no longer give the
// shown result (another workload or configuration, K or the strategies edited are the user's to
// run again); current otherwise.
void DatasetPanel::showState() {
  if (jobs_->busy()) return frame_->setState(StateFrame::State::Computing);
  if (!result_) return frame_->setState(StateFrame::State::Current);
  const DatasetRequest now = request();
  const bool same = now.workload == last_request_.workload &&
                    withoutStrategy(now.config) == withoutStrategy(last_request_.config);
  if (same)
    frame_->setState(StateFrame::State::Current);
  else
    frame_->setState(StateFrame::State::Stale,
                     tr("Computed for other settings (workload or configuration): press Run"));
}

void DatasetPanel::run() {
  const DatasetRequest request = this->request();
  progress_->setValue(0);
  pending_ = true;
  jobs_->start(
      tr("Dataset"),
      [request](const CancelToken& cancel, ProgressSink& progress) -> Expected<DatasetResult> {
        QtTaskPool pool(JobTracker::workerPool());
        return run_dataset(request, pool, cancel, progress);
      },
      [this, request](Expected<DatasetResult> result) {
        pending_ = false;
        if (!result) {
          message_->setText(readableMessage(result.error().message, 400));
          frame_->setState(StateFrame::State::Failed, readableMessage(result.error().message));
          emit finished();
          return;
        }
        setResult(std::make_shared<const DatasetResult>(std::move(*result)), request);
        emit finished();
      });
  showState();
}

void DatasetPanel::cancel() {
  jobs_->cancel();
}

void DatasetPanel::setRunning(bool running) {
  run_->setEnabled(!running);
  cancel_->setEnabled(running);
  // A cancelled job delivers nothing: say so instead of leaving its last progress line.
  if (!running && pending_) {
    pending_ = false;
    message_->setText(tr("cancelled"));
  }
  if (!running && frame_->state() == StateFrame::State::Computing) showState();
}

void DatasetPanel::setResult(std::shared_ptr<const DatasetResult> result,
                             const DatasetRequest& request) {
  result_ = std::move(result);
  last_request_ = request;
  chart_->setResult(result_);
  model_->setResult(result_);
  table_->resizeColumnsToContents();
  progress_->setValue(1000);
  message_->setText(tr("%1 batches × %2 strategies in %3; click a point to show its batch in "
                       "the Gantt")
                        .arg(result_->batches.size())
                        .arg(result_->strategies.size())
                        .arg(formatTime(result_->seconds)));
  showState();
}

void DatasetPanel::chooseBatch(int batch) {
  if (!result_ || batch < 0 || batch >= static_cast<int>(result_->batches.size())) return;
  emit batchChosen(dataset_batch_workload(*result_, batch));
}

}  // namespace slimpack::ui
