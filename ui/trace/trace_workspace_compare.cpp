// TraceWorkspace's comparison of two runs: the diff table by event name (computed by a job),
// the alignment of the two runs on one time axis, and marking a diff row's events.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QInputDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableView>
#include <QWidget>
#include <algorithm>

#include "jobs/job_tracker.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_run.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

namespace slimpack::ui {
namespace {

constexpr int kAskRole = Qt::UserRole + 1;  // the "Align at event…" entry

struct DiffDone {
  std::shared_ptr<const ImportedTrace> a;
  std::shared_ptr<const ImportedTrace> b;
  TraceDiffModel::Result result;
};

}  // namespace

void TraceWorkspace::connectCompare() {
  connect(align_, &QComboBox::activated, this, [this](int index) {
    if (index <= 0) {
      setAlignment(Align::FirstEvent);
    } else if (align_->itemData(index, kAskRole).toBool()) {
      // "Align at event…": any event name, the selected diff row's by default.
      const QModelIndex row = table_->currentIndex();
      bool ok = false;
      const QString name = QInputDialog::getText(
          this, tr("Align at Event"), tr("Event name (its first occurrence in each run):"),
          QLineEdit::Normal,
          row.isValid() ? diff_->index(row.row(), 0).data().toString() : QString(), &ok);
      if (ok && !name.isEmpty())
        alignAtEvent(name);
      else
        setAlignment(Align::FirstEvent);
    } else {
      setAlignment(Align::NamedEvent, align_->itemData(index).toString());
    }
  });
  auto* align_row = new QAction(tr("Align Both Runs at This Event"), table_);
  table_->addAction(align_row);
  table_->setContextMenuPolicy(Qt::ActionsContextMenu);
  connect(align_row, &QAction::triggered, this, [this] {
    const QModelIndex row = table_->currentIndex();
    if (row.isValid()) alignAtEvent(diff_->index(row.row(), 0).data().toString());
  });
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
          [this](const QModelIndex& index) { highlightDiffRow(index.row()); });
}

void TraceWorkspace::updateCompare() {
  compare_->setEnabled(static_cast<bool>(run_a_.timeline));
  const bool cmp = comparing();
  view_b_->setVisible(cmp);
  pane_b_->setVisible(cmp);
  table_->setVisible(cmp);
  align_->setVisible(cmp);
  category_->setVisible(cmp);
  fold_->setVisible(cmp);
  per_step_->setVisible(cmp);
  syncLabelWidths();
  if (!cmp) {
    diff_->setTraces(nullptr, nullptr);
    return;
  }
  TraceCompareOptions options = diff_->options();
  options.category.clear();  // new runs: every category, the fold option kept
  startDiff(options, true);
  fillAlignMenu();
  setAlignment(Align::FirstEvent);
}

void TraceWorkspace::requestDiff(const QString& category, bool fold_digits) {
  TraceCompareOptions options = diff_->options();
  options.category = category.toStdString();
  options.fold_digits = fold_digits;
  startDiff(options, false);
}

void TraceWorkspace::startDiff(TraceCompareOptions options, bool refill_categories) {
  if (!comparing()) return;
  diff_jobs_->start(
      tr("Comparing"),
      [a = run_a_.timeline, b = run_b_.timeline, options](const CancelToken&, ProgressSink&) {
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

void TraceWorkspace::fillAlignMenu() {
  align_->clear();
  align_->addItem(tr("Align at first event"));
  // Steps both runs have, then the top-level names of A (a chosen event).
  const auto steps_a = run_a_.timeline->names_with_prefix("ProfilerStep#");
  const auto steps_b = run_b_.timeline->names_with_prefix("ProfilerStep#");
  for (const auto& s : steps_a)
    if (std::find(steps_b.begin(), steps_b.end(), s) != steps_b.end())
      align_->addItem(tr("Align at %1").arg(QString::fromStdString(s)), QString::fromStdString(s));
  align_->addItem(tr("Align at event…"));
  align_->setItemData(align_->count() - 1, true, kAskRole);
}

bool TraceWorkspace::alignAtEvent(const QString& name) {
  if (setAlignment(Align::NamedEvent, name)) return true;
  status_message_ = tr("no event named “%1” in both runs: alignment unchanged").arg(name);
  updateStatus();
  status_message_.clear();
  return false;
}

bool TraceWorkspace::setAlignment(Align align, const QString& name) {
  if (!comparing()) return false;
  double origin_a = run_a_.timeline->first_start_us();
  double origin_b = run_b_.timeline->first_start_us();
  if (align == Align::NamedEvent) {
    const auto a = run_a_.timeline->first_start_of(name.toStdString());
    const auto b = run_b_.timeline->first_start_of(name.toStdString());
    if (!a || !b) return false;
    origin_a = *a;
    origin_b = *b;
  }
  // A view whose origin stays keeps its snapshot (and its folded groups).
  if (origin_a != run_a_.timeline->origin_us()) {
    run_a_.timeline = run_a_.timeline->with_origin(origin_a);
    view_a_->setTimeline(run_a_.timeline);
  }
  if (origin_b != run_b_.timeline->origin_us()) {
    run_b_.timeline = run_b_.timeline->with_origin(origin_b);
    view_b_->setTimeline(run_b_.timeline);
  }
  // One axis: B shows A's range.
  showOnOneAxis(view_a_, view_b_);
  int index = align == Align::FirstEvent ? 0 : align_->findData(name);
  if (index < 0) {  // a chosen event: listed before "Align at event…" from now on
    index = align_->count() - 1;
    align_->insertItem(index, tr("Align at %1").arg(name), name);
  }
  align_->setCurrentIndex(index);
  if (!search_->text().isEmpty()) search(search_->text());
  return true;
}
void TraceWorkspace::highlightDiffRow(int row) {
  if (row < 0 || row >= diff_->rowCount()) return;
  const std::string name = diff_->row(row).name;
  const bool fold = diff_->foldDigits();
  // The row counts only its category's events when the table is filtered: mark those alone.
  const std::string category = diff_->category().toStdString();
  for (TraceView* v : {view_a_, view_b_}) {
    if (!v->timeline()) continue;
    const TraceTimeline* t = v->timeline().get();
    v->markWhere(
        [t, name, fold](int s, int n) {
          const std::string& candidate =
              t->sources()[static_cast<std::size_t>(s)].trace->names[static_cast<std::size_t>(n)];
          return (fold ? fold_digits(candidate) : candidate) == name;
        },
        category);
  }
  matches_a_ = static_cast<int>(view_a_->marked().size());
  matches_b_ = static_cast<int>(view_b_->marked().size());
  status_message_ = tr("“%1”: %2 events in A, %3 in B")
                        .arg(QString::fromStdString(name))
                        .arg(matches_a_)
                        .arg(matches_b_);
  updateStatus();
  status_message_.clear();
}

}  // namespace slimpack::ui
