#include "trace/trace_diff_panel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTableView>
#include <algorithm>

#include "jobs/job_tracker.h"
#include "trace/timeline_stack.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_loader.h"
#include "trace/trace_run.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

struct DiffDone {
  std::shared_ptr<const ImportedTrace> a;
  std::shared_ptr<const ImportedTrace> b;
  TraceDiffModel::Result result;
};

}  // namespace

TraceDiffPanel::TraceDiffPanel(const TraceLoader& loader, TimelineStack& stack, QObject* parent)
    : QObject(parent),
      loader_(loader),
      stack_(stack),
      diff_(new TraceDiffModel(this)),
      table_(new QTableView),
      category_(new QComboBox),
      fold_(new QCheckBox(tr("Fold digits"))),
      per_step_(new QCheckBox(tr("Per step"))),
      jobs_(new JobTracker(this)) {
  setUpControls();
  setUpTable();
  connectControls();
}

void TraceDiffPanel::setUpControls() {
  category_->setToolTip(tr("Only events of this category in the diff table"));
  fold_->setToolTip(
      tr("Count names that differ only in digits together (ProfilerStep#12 and #13)"));
  // Its items come from the trace (categories): a long one must not set the tab's minimum width
  // (the list shows it whole).
  category_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  category_->setMinimumContentsLength(14);
  per_step_->setObjectName(QStringLiteral("tracePerStep"));
  per_step_->setChecked(true);
  per_step_->setToolTip(
      tr("Compare per profiler step: the mean per ProfilerStep#N of each run (a run without "
         "steps is compared whole); off: the whole runs"));
}

void TraceDiffPanel::setUpTable() {
  table_->setModel(diff_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(TraceDiffModel::Name, QHeaderView::Stretch);
  table_->setObjectName(QStringLiteral("traceDiffTable"));
  auto* align_row = new QAction(tr("Align Both Runs at This Event"), table_);
  table_->addAction(align_row);
  table_->setContextMenuPolicy(Qt::ActionsContextMenu);
  connect(align_row, &QAction::triggered, this, [this] {
    const QString name = currentName();
    if (table_->currentIndex().isValid()) emit alignRequested(name);
  });
  table_->hide();
}

void TraceDiffPanel::connectControls() {
  connect(category_, &QComboBox::activated, this, [this](int index) {
    requestDiff(index <= 0 ? QString() : category_->itemText(index), fold_->isChecked());
  });
  connect(per_step_, &QCheckBox::toggled, this, [this](bool on) {
    TraceCompareOptions options = diff_->options();
    options.steps = on ? std::optional<StepRange>(StepRange{}) : std::nullopt;
    startDiff(options, false);
  });
  connect(fold_, &QCheckBox::toggled, this, [this](bool on) {
    requestDiff(category_->currentIndex() <= 0 ? QString() : category_->currentText(), on);
  });
  connect(table_, &QTableView::clicked, this,
          [this](const QModelIndex& index) { highlightRow(index.row()); });
}

QString TraceDiffPanel::currentName() const {
  const QModelIndex row = table_->currentIndex();
  return row.isValid() ? diff_->index(row.row(), 0).data().toString() : QString();
}

void TraceDiffPanel::setShown(bool on) {
  table_->setVisible(on);
  category_->setVisible(on);
  fold_->setVisible(on);
  per_step_->setVisible(on);
}

void TraceDiffPanel::restart() {
  if (!loader_.comparing()) {
    diff_->setTraces(nullptr, nullptr);
    return;
  }
  TraceCompareOptions options = diff_->options();
  options.category.clear();  // new runs: every category, the fold option kept
  startDiff(options, true);
}

void TraceDiffPanel::requestDiff(const QString& category, bool fold_digits) {
  TraceCompareOptions options = diff_->options();
  options.category = category.toStdString();
  options.fold_digits = fold_digits;
  startDiff(options, false);
}

void TraceDiffPanel::startDiff(TraceCompareOptions options, bool refill_categories) {
  if (!loader_.comparing()) return;
  jobs_->start(
      tr("Comparing"),
      [a = loader_.run(TraceLoader::Slot::A).timeline,
       b = loader_.run(TraceLoader::Slot::B).timeline, options](const CancelToken&, ProgressSink&) {
        // The merge and the diff are core/app's compare_runs, as `slimpack trace compare`.
        DiffDone out;
        out.result = TraceDiffModel::compute(rank_sources(*a), rank_sources(*b), options);
        out.a = out.result.a;
        out.b = out.result.b;
        return Expected<DiffDone>(std::move(out));
      },
      [this, refill_categories](Expected<DiffDone> done) {
        if (!done) return;  // cancelled by a newer request
        diff_->setResult(std::move(done->a), std::move(done->b), std::move(done->result));
        {
          const QSignalBlocker block_fold(fold_);
          fold_->setChecked(diff_->foldDigits());
        }
        if (refill_categories) {
          category_->clear();
          category_->addItem(tr("All categories"));
          category_->addItems(diff_->categories());
        }
        const int index = diff_->category().isEmpty() ? 0 : category_->findText(diff_->category());
        category_->setCurrentIndex(std::max(index, 0));
      });
}

void TraceDiffPanel::highlightRow(int row) {
  if (row < 0 || row >= diff_->rowCount()) return;
  const std::string name = diff_->row(row).name;
  const bool fold = diff_->foldDigits();
  // The row counts only its category's events when the table is filtered: mark those alone.
  const std::string category = diff_->category().toStdString();
  // The table compares bars by name: instant events are not rows of it.
  const std::vector<int> marked = stack_.markWhere(
      [name, fold](const std::string& candidate) {
        return (fold ? fold_digits(candidate) : candidate) == name;
      },
      category, /*bars_only=*/true);
  const int in_a = marked.empty() ? 0 : marked[0];
  const int in_b = marked.size() < 2 ? 0 : marked[1];
  emit rowMarked(
      in_a, in_b,
      tr("“%1”: %2 events in A, %3 in B").arg(QString::fromStdString(name)).arg(in_a).arg(in_b));
}

}  // namespace slimpack::ui
