// TraceWorkspace's widgets and their layout: the two bars of controls, the panes of the splitter
// (run A, the simulated check, run B, the diff table, the GPU summary, the details area).
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "trace/bubble_panel.h"
#include "trace/elided_label.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_scroll_area.h"
#include "trace/trace_summary_panel.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

namespace slimpack::ui {
namespace {

constexpr const char* kTraceFilter = "Traces (*.json *.json.gz *.pt.trace.json);;All files (*)";

// A run's title over its timeline ("A: rank0.json"), so two runs are never mistaken.
QWidget* titled(QLabel* title, QWidget* body) {
  auto* pane = new QWidget;
  auto* l = new QVBoxLayout(pane);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(1);
  title->setStyleSheet(QStringLiteral("QLabel { font-weight: bold; padding: 1px 4px; }"));
  l->addWidget(title);
  l->addWidget(body, 1);
  return pane;
}

}  // namespace

void TraceWorkspace::setUpControls() {
  search_->setPlaceholderText(tr("Search events by name"));
  search_->setClearButtonEnabled(true);
  search_->setObjectName(QStringLiteral("traceSearch"));
  rank_align_->setObjectName(QStringLiteral("traceRankAlign"));
  rank_align_->setPlaceholderText(tr("Align ranks at event"));
  rank_align_->setClearButtonEnabled(true);
  rank_align_->setToolTip(
      tr("The ranks' clocks: each file's first event of this name is its time zero (e.g. "
         "ProfilerStep#2); empty: as recorded. slimpack's --trace-align"));
  align_->setObjectName(QStringLiteral("traceAlign"));
  align_->setToolTip(tr("How the two runs share the time axis"));
  category_->setToolTip(tr("Only events of this category in the diff table"));
  fold_->setToolTip(
      tr("Count names that differ only in digits together (ProfilerStep#12 and #13)"));
  progress_->setMaximumWidth(180);
  // The load's progress and Cancel keep their room when hidden: a load that shows them must not
  // widen the bar, squeeze the docks or move the buttons under the pointer.
  for (QWidget* w : {static_cast<QWidget*>(progress_), static_cast<QWidget*>(cancel_)}) {
    QSizePolicy policy = w->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    w->setSizePolicy(policy);
  }
  // Their items come from the trace (event names, categories): a long one must not set the
  // tab's minimum width (the list shows it whole).
  for (QComboBox* box : {align_, category_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(14);
  }
  // The status line wraps: its long lines (the opening hint, a calibration's profile path) must
  // not set the window's minimum width.
  status_->setWordWrap(true);
  // A wrapped label still asks for its longest word: a file name of 170 characters in "Loaded …"
  // widened the tab. It takes the width the row gives it (the file name is cut, not the window).
  status_->setSizePolicy(QSizePolicy::Ignored, status_->sizePolicy().verticalPolicy());
  progress_->setRange(0, 1000);
  progress_->hide();
  cancel_->hide();
  compare_->setEnabled(false);
  prev_->setArrowType(Qt::UpArrow);
  next_->setArrowType(Qt::DownArrow);
  prev_->setObjectName(QStringLiteral("traceSearchPrev"));
  next_->setObjectName(QStringLiteral("traceSearchNext"));
  prev_->setToolTip(tr("Previous match (Shift+Enter in the search field)"));
  next_->setToolTip(tr("Next match (Enter in the search field)"));
  match_label_->setObjectName(QStringLiteral("traceMatchCount"));
  label_a_->setObjectName(QStringLiteral("traceTitleA"));
  label_b_->setObjectName(QStringLiteral("traceTitleB"));
}

QHBoxLayout* TraceWorkspace::buildActionBar() {
  // Two rows, so the tab never widens the window past a laptop screen: the actions, then the
  // search and the comparison's controls.
  auto* bar = new QHBoxLayout;
  auto* open = new QPushButton(tr("Open Traces…"));
  bar->addWidget(open);
  bar->addWidget(compare_);
  bar->addWidget(sim_button_);
  auto* summary_button = new QPushButton(tr("GPU Summary"));
  summary_button->setObjectName(QStringLiteral("traceSummaryButton"));
  summary_button->setCheckable(true);
  summary_button->setToolTip(
      tr("GPU time per rank and step: computation, communication, memcpy, "
         "idle (slimpack trace summary)"));
  bar->addWidget(summary_button);
  connect(summary_button, &QPushButton::toggled, summary_, &QWidget::setVisible);
  summary_->hide();
  // The track list: lanes filtered by their titles, groups folded or unfolded at once (a group's
  // label has a context menu to pin it to the top).
  for (const bool fold : {true, false}) {
    auto* b = new QToolButton;
    b->setText(fold ? tr("Collapse All") : tr("Expand All"));
    b->setObjectName(fold ? QStringLiteral("traceCollapseAll") : QStringLiteral("traceExpandAll"));
    bar->addWidget(b);
    connect(b, &QToolButton::clicked, this, [this, fold] {
      view_a_->setAllCollapsed(fold);
      view_b_->setAllCollapsed(fold);
    });
  }
  connect(track_filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    view_a_->setLaneFilter(text);
    view_b_->setLaneFilter(text);
  });
  // Every flow of the visible range as an arrow, not only the selected event's.
  auto* all_flows = new QToolButton;
  all_flows->setText(tr("All Flows"));
  all_flows->setObjectName(QStringLiteral("traceAllFlows"));
  all_flows->setCheckable(true);
  all_flows->setToolTip(
      tr("Draw every flow of the visible range (a launch to its kernel); off: only the "
         "selected event's"));
  bar->addWidget(all_flows);
  connect(all_flows, &QToolButton::toggled, this, [this](bool on) {
    view_a_->setAllFlowsShown(on);
    view_b_->setAllFlowsShown(on);
  });
  bar->addWidget(rules_);
  bar->addWidget(calibrate_);
  rules_->hide();
  calibrate_->hide();
  bar->addStretch(1);
  bar->addWidget(progress_);
  bar->addWidget(cancel_);
  connect(open, &QPushButton::clicked, this, [this] {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Traces (one file per rank)"), {}, tr(kTraceFilter));
    if (!files.isEmpty()) openTraces(files, Slot::A);
  });
  connect(compare_, &QPushButton::clicked, this, [this] {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Compare with Traces (one file per rank)"), {}, tr(kTraceFilter));
    if (!files.isEmpty()) openTraces(files, Slot::B);
  });
  return bar;
}

void TraceWorkspace::setBubblesVisible(bool on) {
  bubbles_button_->setChecked(on);  // toggled shows the panel (and measured vs simulated)
}

QHBoxLayout* TraceWorkspace::buildSearchBar() {
  auto* bar2 = new QHBoxLayout;
  // In this row, whose search field gives way: the first row has no room left on a laptop.
  bubbles_button_ = new QPushButton(tr("Bubbles"));
  bubbles_button_->setObjectName(QStringLiteral("traceBubblesButton"));
  bubbles_button_->setCheckable(true);
  bubbles_button_->setToolTip(
      tr("Where run A's bubbles come from, against the current plan: idle time by cause on the "
         "timeline, the critical path, a table per stage (slimpack trace pipeline)"));
  connect(bubbles_button_, &QPushButton::toggled, this, [this](bool on) {
    bubbles_->setVisible(on);
    if (on) setSimCheckVisible(true);
  });
  bubbles_->hide();
  bar2->addWidget(bubbles_button_);
  bar2->addWidget(search_, 1);
  bar2->addWidget(prev_);
  bar2->addWidget(next_);
  bar2->addWidget(match_label_);
  track_filter_->setObjectName(QStringLiteral("traceTrackFilter"));
  track_filter_->setPlaceholderText(tr("Filter tracks"));
  track_filter_->setClearButtonEnabled(true);
  track_filter_->setMaximumWidth(170);
  track_filter_->setToolTip(
      tr("Only lanes whose title contains this text: a rank (\"rank 1\"), a process (\"GPU\"), a "
         "thread or a stream (\"stream 7\")"));
  bar2->addWidget(track_filter_);
  bar2->addWidget(rank_align_);
  bar2->addWidget(align_);
  bar2->addWidget(category_);
  bar2->addWidget(fold_);
  bar2->addWidget(per_step_);
  per_step_->setObjectName(QStringLiteral("tracePerStep"));
  per_step_->setChecked(true);
  per_step_->setToolTip(
      tr("Compare per profiler step: the mean per ProfilerStep#N of each run (a run without "
         "steps is compared whole); off: the whole runs"));
  return bar2;
}

QWidget* TraceWorkspace::buildPanes() {
  table_->setModel(diff_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(TraceDiffModel::Name, QHeaderView::Stretch);
  table_->setObjectName(QStringLiteral("traceDiffTable"));
  view_a_->setObjectName(QStringLiteral("traceViewA"));
  view_b_->setObjectName(QStringLiteral("traceViewB"));
  sim_button_->setCheckable(true);
  sim_button_->setToolTip(
      tr("Show the simulated Gantt of the current plan under run A, with the error of every "
         "mapped unit, MAPE and the makespan error"));
  sim_check_->hide();
  // Each trace scrolls vertically when its lanes do not fit (several ranks, deep stacks).
  scroll_a_ = new TraceScrollArea(view_a_);
  scroll_b_ = new TraceScrollArea(view_b_);
  pane_b_ = titled(label_b_, scroll_b_);
  splitter_->addWidget(titled(label_a_, scroll_a_));
  splitter_->addWidget(sim_check_);
  splitter_->addWidget(pane_b_);
  splitter_->addWidget(table_);
  splitter_->addWidget(summary_);
  splitter_->addWidget(details_);
  splitter_->setStretchFactor(0, 4);
  splitter_->setStretchFactor(1, 3);
  splitter_->setStretchFactor(2, 3);
  splitter_->setStretchFactor(3, 2);
  splitter_->setStretchFactor(5, 1);
  // Under the simulated check it follows (the factors above stay with their widgets).
  bubbles_->attach(sim_check_, view_a_);
  splitter_->insertWidget(2, bubbles_);
  splitter_->setStretchFactor(2, 2);
  view_b_->hide();
  pane_b_->hide();
  scroll_b_->installEventFilter(this);
  table_->hide();
  return splitter_;
}

}  // namespace slimpack::ui
