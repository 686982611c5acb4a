#include "panels/compare_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "gantt/gantt_view.h"
#include "models/compare_model.h"
#include "models/format.h"
#include "panels/state_frame.h"
#include "solver/strategy.h"

namespace slimpack::ui {
namespace {
// The comparison table shows this many rows without scrolling (every strategy the tab offers).
constexpr int kTableRows = 8;
}  // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      run_(new QPushButton(tr("Compare"))),
      message_(new QLabel),
      stack_(new QSplitter(Qt::Vertical)),
      table_(new QTableView),
      model_(new CompareModel(this)) {
  message_->setWordWrap(true);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Strategies:")));
  for (const auto& name : strategy_names()) {
    auto* box = new QCheckBox(QString::fromStdString(name));
    // Checked by default: the baseline and every strategy that slices (what the paper compares).
    const auto info = strategy_info(name);
    box->setChecked(info && (info->is_baseline || info->uses_slices));
    boxes_.push_back(box);
    row->addWidget(box);
  }
  row->addWidget(run_);
  row->addWidget(message_, 1);
  run_->setToolTip(tr("Solve the current batch with each checked strategy (first = baseline)"));

  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);

  auto* outer = new QSplitter(Qt::Vertical);
  outer->addWidget(stack_);
  outer->addWidget(table_);
  outer->setStretchFactor(0, 4);
  outer->setStretchFactor(1, 1);
  outer->setCollapsible(1, false);
  frame_ = new StateFrame(outer);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(row);
  layout->addWidget(frame_, 1);
  connect(run_, &QPushButton::clicked, this,
          [this] { emit compareRequested(selectedStrategies()); });
}

CompareView::~CompareView() {
  // QWidget's destructor deletes the Gantts after this class's members are gone: their
  // destroyed() must not reach the lambda that edits views_ any more.
  for (GanttView* v : views_) v->disconnect(this);
}

QString CompareView::titleText(const CompareRow& row, const QString& unit) {
  // The headline numbers beside each Gantt, so the picture reads without the table.
  return QStringLiteral(
             "<b>%1</b> &middot; iteration %2 &middot; %3%4 &middot; bubble %5 "
             "&middot; peak %6")
      .arg(row.strategy.toHtmlEscaped(), formatTime(row.iteration_time, unit),
           formatRatio(row.speedup), row.baseline ? tr(" (baseline)") : QString(),
           formatPercent(row.bubble_ratio), formatBytes(row.peak_memory));
}

QStringList CompareView::selectedStrategies() const {
  QStringList out;
  for (QCheckBox* b : boxes_)
    if (b->isChecked()) out << b->text();
  return out;
}

void CompareView::setEntries(const std::vector<CompareEntry>& entries) {
  entries_ = entries;
  model_->setEntries(entries);
  table_->resizeColumnsToContents();
  // Every row shows (up to kTableRows; the splitter above gives it more): a height cap of eight
  // text lines left three rows of six strategies under the header.
  const int table_rows = std::min(model_->rowCount(), kTableRows);
  table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                           table_rows * table_->verticalHeader()->defaultSectionSize() +
                           2 * table_->frameWidth() + 2);
  std::vector<std::string> shown;
  TimeRange shared{0.0, 0.0};
  for (const auto& e : entries) {
    if (!e.gantt) continue;
    shown.push_back(e.strategy);
    shared.t1 = std::max(shared.t1, e.gantt->time_extent().t1);
  }
  if (shown == view_strategies_ && shown.size() == views_.size()) {
    // The same strategies again (a re-run after an edit): new models into the existing views.
    // Recreating the widgets would cost a layout pass and a full repaint of the tab.
    std::size_t i = 0;
    for (const auto& e : entries)
      if (e.gantt) views_[i++]->setModel(e.gantt);
  } else {
    rebuildViews(entries);
    view_strategies_ = std::move(shown);
  }
  // The table's rows (one per entry) have the numbers the titles show.
  const std::vector<CompareRow>& rows = model_->rows();
  std::size_t shown_i = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].gantt) continue;
    auto* title = views_[shown_i++]->parentWidget()->findChild<QLabel*>(kTitleName);
    if (title) title->setText(titleText(rows[i], model_->timeUnit()));
  }
  // One label column width and one time range: identical time->x mapping in every view.
  int label = 0;
  for (GanttView* v : views_) label = std::max(label, v->naturalLabelWidth());
  syncing_ = true;
  for (GanttView* v : views_) {
    v->setLabelWidth(label);
    if (shared.t1 > 0) v->setViewRange(shared.t0, shared.t1);
  }
  syncing_ = false;
  // Say which strategy failed and why, beside the button (the table repeats it per row).
  QStringList failures;
  for (const CompareRow& r : rows)
    if (!r.error.isEmpty()) failures << tr("%1 failed: %2").arg(r.strategy, r.error);
  message_->setText(failures.join(QStringLiteral("\n")));
  message_->setToolTip(failures.join(QStringLiteral("\n")));
}

void CompareView::rebuildViews(const std::vector<CompareEntry>& entries) {
  for (GanttView* v : views_) v->parentWidget()->deleteLater();
  views_.clear();
  for (const auto& e : entries) {
    if (!e.gantt) continue;
    auto* box = new QWidget;
    auto* col = new QVBoxLayout(box);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(0);
    auto* title = new QLabel;
    title->setObjectName(kTitleName);
    col->addWidget(title);
    auto* view = new GanttView;
    view->setLegendVisible(false);  // the title above each Gantt and the main view explain it
    view->setTheme(theme_);
    view->setModel(e.gantt);
    col->addWidget(view, 1);
    stack_->addWidget(box);
    views_.push_back(view);
    connect(view, &GanttView::viewChanged, this,
            [this, view](double t0, double t1) { syncRange(view, t0, t1); });
    connect(view, &GanttView::sequenceHighlighted, this,
            [this, view](int seq) { syncHighlight(view, seq); });
    // Deleting the container deletes the view; keep views_ free of dangling pointers.
    connect(view, &QObject::destroyed, this, [this, view] {
      views_.erase(std::remove(views_.begin(), views_.end(), view), views_.end());
    });
  }
}

void CompareView::syncRange(GanttView* source, double t0, double t1) {
  if (syncing_) return;
  syncing_ = true;
  for (GanttView* v : views_)
    if (v != source) v->setViewRange(t0, t1);
  syncing_ = false;
}

void CompareView::syncHighlight(GanttView* source, int seq) {
  if (syncing_) return;
  syncing_ = true;
  for (GanttView* v : views_)
    if (v != source && seq < (v->model() ? v->model()->sequence_count() : 0))
      v->setHighlightedSequence(seq);
  syncing_ = false;
}

void CompareView::setViewRange(double t0, double t1) {
  if (views_.empty()) return;
  views_.front()->setViewRange(t0, t1);
  syncRange(views_.front(), t0, t1);
}

void CompareView::setHighlightedSequence(int seq) {
  for (GanttView* v : views_)
    if (seq < (v->model() ? v->model()->sequence_count() : 0)) v->setHighlightedSequence(seq);
}

void CompareView::setRunning(bool running) {
  run_->setEnabled(!running);
  if (running) {
    message_->setText(tr("comparing…"));
  } else if (message_->text() == tr("comparing…")) {
    // Finished without a result (cancelled or superseded): no promise of one.
    message_->setText(entries_.empty() ? QString() : tr("cancelled: the last comparison stays"));
  }
}

void CompareView::setMessage(const QString& text) {
  message_->setText(text);
}

void CompareView::setTheme(GanttTheme theme) {
  theme_ = theme;
  for (GanttView* v : views_) v->setTheme(theme);
}

}  // namespace slimpack::ui
