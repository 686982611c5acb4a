#include "panels/search_panel.h"

#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
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

#include "app/search_json.h"
#include "charts/search_chart.h"
#include "common/json_util.h"
#include "jobs/job_tracker.h"
#include "jobs/qt_task_pool.h"
#include "models/format.h"
#include "models/search_model.h"
#include "panels/search_space_editor.h"
#include "panels/state_frame.h"

namespace slimpack::ui {
namespace {
// Whether a result computed for `a` answers request `b` (the callbacks and resume rows aside).
bool sameSearch(const SearchRequest& a, const SearchRequest& b) {
  return a.workload == b.workload && a.base == b.base && a.space == b.space &&
         a.batches == b.batches && a.prune == b.prune;
}
}  // namespace

SearchPanel::SearchPanel(QWidget* parent)
    : QWidget(parent),
      jobs_(new JobTracker(this)),
      chart_(new SearchChart),
      model_(new SearchModel(this)),
      table_(new QTableView),
      gpus_(new QSpinBox),
      batches_(new QSpinBox),
      space_(new SearchSpaceEditor),
      x_axis_(new QComboBox),
      run_(new QPushButton(tr("Search"))),
      cancel_(new QPushButton(tr("Cancel"))),
      export_(new QPushButton(tr("Export…"))),
      progress_(new QProgressBar),
      message_(new QLabel) {
  configureControls();
  layOut();
  connectSignals();
}

void SearchPanel::configureControls() {
  gpus_->setRange(1, 1 << 16);
  gpus_->setValue(64);
  gpus_->setToolTip(tr("GPU budget: every p × t × c × d up to this many GPUs"));
  batches_->setRange(1, 1024);
  batches_->setValue(8);
  batches_->setToolTip(tr("Every configuration is evaluated on these many seeded batches"));
  x_axis_->addItem(tr("against GPUs"));
  x_axis_->addItem(tr("against peak memory"));
  progress_->setRange(0, 1000);
  progress_->setTextVisible(false);
  progress_->setMaximumWidth(200);
  message_->setWordWrap(true);
  export_->setEnabled(false);
  cancel_->setEnabled(false);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setToolTip(tr("Double-click a row to load that configuration"));
}

// The controls in one row, the space's fields under them, the message on a line of its own (it
// grows to a few lines: "128 configurations: ..."), then the plot and the table sharing the
// height 3:2; the plot keeps room for its axes when the window is short.
void SearchPanel::layOut() {
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("GPUs")));
  controls->addWidget(gpus_);
  controls->addWidget(new QLabel(tr("batches")));
  controls->addWidget(batches_);
  controls->addWidget(run_);
  controls->addWidget(cancel_);
  controls->addWidget(progress_);
  controls->addStretch(1);
  controls->addWidget(x_axis_);
  controls->addWidget(export_);
  chart_->setMinimumHeight(220);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(chart_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  frame_ = new StateFrame(split);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(controls);
  layout->addWidget(space_);
  layout->addWidget(message_);
  layout->addWidget(frame_, 1);
}

void SearchPanel::connectSignals() {
  connect(run_, &QPushButton::clicked, this, &SearchPanel::run);
  connect(space_, &SearchSpaceEditor::submitted, this, [this] {
    if (!jobs_->busy()) run();
  });
  connect(cancel_, &QPushButton::clicked, this, &SearchPanel::cancel);
  connect(export_, &QPushButton::clicked, this, &SearchPanel::exportDialog);
  connect(x_axis_, &QComboBox::currentIndexChanged, this, [this](int i) {
    chart_->setXAxis(i == 0 ? SearchChart::XAxis::Gpus : SearchChart::XAxis::PeakMemory);
  });
  connect(chart_, &SearchChart::configurationClicked, this, &SearchPanel::choose);
  connect(table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { choose(model_->resultRow(index.row())); });
  connect(jobs_, &JobTracker::busyChanged, this, &SearchPanel::setRunning);
  connect(jobs_, &JobTracker::cancelled, this, [this] { undelivered_ = true; });
  // The request Search would run now changes with these: the result on screen may go stale.
  connect(gpus_, &QSpinBox::valueChanged, this, &SearchPanel::updateFreshness);
  connect(batches_, &QSpinBox::valueChanged, this, &SearchPanel::updateFreshness);
  for (QLineEdit* field : space_->findChildren<QLineEdit*>())
    connect(field, &QLineEdit::textChanged, this, &SearchPanel::updateFreshness);
  connect(jobs_, &JobTracker::progress, this, [this](const QString& stage, double f) {
    progress_->setValue(static_cast<int>(f * 1000));
    message_->setText(stage);
  });
}

SearchPanel::~SearchPanel() = default;

void SearchPanel::setBasis(const WorkloadSpec& workload, const ConfigSpec& config) {
  workload_ = workload;
  config_ = config;
  updateFreshness();
}

void SearchPanel::setGpus(int gpus) {
  gpus_->setValue(gpus);
}
void SearchPanel::setBatches(int batches) {
  batches_->setValue(batches);
}
void SearchPanel::setDark(bool dark) {
  chart_->setDark(dark);
}

SearchSessionPart SearchPanel::sessionPart() const {
  return {space_->readableSpace(gpus_->value()), batches_->value()};
}

QString SearchPanel::unsavedField() const {
  auto space = space_->space(gpus_->value());
  return space ? QString() : QString::fromStdString(space.error().message);
}

void SearchPanel::restoreSessionPart(const SearchSessionPart& part) {
  space_->setSpace(part.space);
  gpus_->setValue(part.space.gpus);
  batches_->setValue(part.batches);
}

QString SearchPanel::message() const {
  return message_->text();
}

Expected<SearchRequest> SearchPanel::request() const {
  SearchRequest r;
  r.workload = workload_;
  // A whole length file is one batch; a preset or a sized batch is sampled K times.
  const bool whole_file =
      !workload_.file.empty() && workload_.batch_tokens == 0 && workload_.batch_count == 0;
  r.batches = whole_file ? 1 : batches_->value();
  r.base = config_;
  auto space = space_->space(gpus_->value());
  if (!space) return space.error();
  // The lists against the model and GPU (layers, heads, a node), before any work starts.
  if (auto resolved = resolve_space(*space, config_); !resolved)
    return searchSpaceError(resolved.error());
  r.space = std::move(*space);
  return r;
}

void SearchPanel::run() {
  auto checked = this->request();
  if (!checked) {
    const QString reason = QString::fromStdString(checked.error().message);
    message_->setText(readableMessage(checked.error().message, 400));
    emit badInput(tr("Cannot search"), reason);
    return;
  }
  const SearchRequest request = std::move(*checked);
  progress_->setValue(0);
  pending_ = true;
  undelivered_ = false;
  jobs_->start(
      tr("Searching"),
      [request](const CancelToken& cancel, ProgressSink& progress) -> Expected<SearchResult> {
        QtTaskPool pool(JobTracker::workerPool());
        return run_search(request, pool, cancel, progress);
      },
      [this, request](Expected<SearchResult> result) {
        pending_ = false;
        if (!result) {
          undelivered_ = true;
          message_->setText(readableMessage(result.error().message, 400));
          updateFreshness();
          emit finished();
          return;
        }
        setResult(std::make_shared<const SearchResult>(std::move(*result)), request);
        emit finished();
      });
}

void SearchPanel::cancel() {
  jobs_->cancel();
}

void SearchPanel::setRunning(bool running) {
  run_->setEnabled(!running);
  cancel_->setEnabled(running);
  // A cancelled job delivers nothing: say so instead of leaving its last progress line.
  if (!running && pending_) {
    pending_ = false;
    message_->setText(tr("cancelled"));
  }
  updateFreshness();
}

void SearchPanel::updateFreshness() {
  auto now = request();
  const bool matches = result_ && now && sameSearch(last_request_, *now);
  // A search that runs replaces the result even when it asks the same: the old one is not the
  // answer the user is waiting for once it was asked again, and a cancelled one stays greyed.
  const Freshness f =
      freshnessOf(result_ != nullptr, matches && !jobs_->busy() && !undelivered_, jobs_->busy());
  QString why;
  if (f == Freshness::Stale)
    why = undelivered_ ? tr("The newest search was cancelled or failed: greyed, the previous "
                            "search's result (%1 GPUs, K = %2).")
                             .arg(last_request_.space.gpus)
                             .arg(last_request_.batches)
                       : tr("Computed for other settings (%1 GPUs, K = %2): press Search to "
                            "update it.")
                             .arg(last_request_.space.gpus)
                             .arg(last_request_.batches);
  else if (f == Freshness::Computing)
    why = tr("Searching… (Esc cancels)");
  frame_->setState(f, why);
  export_->setEnabled(result_ && exportable(f));
  export_->setToolTip(export_->isEnabled()
                          ? tr("Export the table (CSV), the result (JSON) or the plot (PNG)")
                          : tr("No current result to export: the one shown is greyed"));
}

void SearchPanel::setResult(std::shared_ptr<const SearchResult> result,
                            const SearchRequest& request) {
  result_ = std::move(result);
  last_request_ = request;
  chart_->setResult(result_);
  model_->setResult(result_);
  table_->resizeColumnsToContents();
  progress_->setValue(1000);
  const SearchStats& s = result_->stats;
  message_->setText(tr("%1 configurations: %2 solved, %3 infeasible (%4 by the memory check), "
                       "%5 pruned by the bounds; %6 on the front")
                        .arg(s.evaluated)
                        .arg(s.solved)
                        .arg(s.infeasible)
                        .arg(s.memory_checked)
                        .arg(s.pruned)
                        .arg(result_->front.size()));
  updateFreshness();
}

void SearchPanel::choose(int row) {
  if (!result_ || row < 0 || row >= static_cast<int>(result_->rows.size())) return;
  const SearchRow& r = result_->rows[static_cast<std::size_t>(row)];
  if (r.status != SearchStatus::Solved) return;
  // run_search evaluates batch k with seed + k (core/app/search.h); the explorer solves the
  // workload's own batch, the search's batch 0.
  const QString label = QString::fromStdString(config_label(r.config));
  const auto seed = static_cast<qulonglong>(last_request_.workload.seed);
  choice_note_ =
      last_request_.batches <= 1
          ? tr("Loaded %1 from the search: its figures there are for this same batch.").arg(label)
          : tr("Loaded %1 from the search: its figures there (%2 per GPU, iteration %3) are means "
               "over K = %4 batches (seeds %5 to %6); the Gantt shows batch 0 (seed %5).")
                .arg(label, formatRate(r.tokens_per_second_per_gpu),
                     formatTime(r.mean_iteration_time))
                .arg(last_request_.batches)
                .arg(seed)
                .arg(seed + static_cast<qulonglong>(last_request_.batches) - 1);
  emit configurationChosen(config_for(last_request_.base, r.config));
}

Status SearchPanel::exportTo(const QString& path) const {
  if (!result_) return Error::bad_input("no search result to export");
  std::string text;
  if (path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) {
    if (!chart_->view()->grab().save(path))
      return Error::bad_input(path.toStdString() + ": cannot write the picture");
    return {};
  }
  if (path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)) {
    text = search_csv(*result_);
  } else {
    auto resolved = resolve_space(last_request_.space, last_request_.base);
    if (!resolved) return resolved.error();
    text = search_result_json(*result_, search_descriptor(last_request_, *resolved)).dump(2) + "\n";
  }
  return json_util::write_file_atomic(path.toStdString(), text);
}

void SearchPanel::exportDialog() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export search"), QStringLiteral("search.csv"),
                                   tr("CSV table (*.csv);;JSON result (*.json);;Plot (*.png)"));
  if (path.isEmpty()) return;
  if (Status s = exportTo(path); !s)
    message_->setText(readableMessage(s.error().message, 300));
  else
    message_->setText(tr("Exported to %1").arg(path));
}

}  // namespace slimpack::ui
