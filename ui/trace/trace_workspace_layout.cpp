// TraceWorkspace's widgets and their layout: the two bars of controls (the parts' controls among
// the tab's own buttons), the panes of the splitter (run A, the simulated check, run B, the diff
// table, the GPU summary, the details area).
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "panels/flow_layout.h"
#include "trace/bubble_panel.h"
#include "trace/elided_label.h"
#include "trace/sim_check_panel.h"
#include "trace/timeline_stack.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_diff_panel.h"
#include "trace/trace_run_alignment.h"
#include "trace/trace_scroll_area.h"
#include "trace/trace_search.h"
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

QToolButton* tool_button(const QString& text, const QString& name) {
  auto* b = new QToolButton;
  b->setText(text);
  b->setObjectName(name);
  return b;
}

}  // namespace

void TraceWorkspace::setUpControls() {
  // The status line wraps: its long lines (the opening hint, a calibration's profile path) must
  // not set the window's minimum width.
  status_->setWordWrap(true);
  // A wrapped label still asks for its longest word: a file name of 170 characters in "Loaded …"
  // widened the tab. It takes the width the row gives it (the file name is cut, not the window).
  status_->setSizePolicy(QSizePolicy::Ignored, status_->sizePolicy().verticalPolicy());
  compare_->setEnabled(false);
  label_a_->setObjectName(QStringLiteral("traceTitleA"));
  label_b_->setObjectName(QStringLiteral("traceTitleB"));
  sim_button_->setCheckable(true);
  sim_button_->setToolTip(
      tr("Show the simulated Gantt of the current plan under run A, with the error of every "
         "mapped unit, MAPE and the makespan error"));
}

// The tab's actions. Their row wraps (FlowLayout) where the tab is narrower than all of them
// (a laptop screen beside the docks): every button keeps its whole label. (The load's progress
// and Cancel are in the tab's foot: their room, kept while hidden, would be a blank row here.)
QWidget* TraceWorkspace::buildActionBar() {
  auto* bar = new QWidget;
  bar->setObjectName(QStringLiteral("traceActionBar"));
  auto* flow = new FlowLayout(bar);
  auto* open = new QPushButton(tr("Open Traces…"));
  flow->addWidget(open);
  flow->addWidget(compare_);
  flow->addWidget(sim_button_);
  auto* summary_button = new QPushButton(tr("GPU Summary"));
  summary_button->setObjectName(QStringLiteral("traceSummaryButton"));
  summary_button->setCheckable(true);
  summary_button->setToolTip(
      tr("GPU time per rank and step: computation, communication, memcpy, "
         "idle (slimpack trace summary)"));
  flow->addWidget(summary_button);
  connect(summary_button, &QPushButton::toggled, summary_, &QWidget::setVisible);
  summary_->hide();
  // The track list: lanes filtered by their titles, groups folded or unfolded at once (a group's
  // label has a context menu to pin it to the top).
  for (const bool fold : {true, false}) {
    auto* b = fold ? tool_button(tr("Collapse All"), QStringLiteral("traceCollapseAll"))
                   : tool_button(tr("Expand All"), QStringLiteral("traceExpandAll"));
    flow->addWidget(b);
    connect(b, &QToolButton::clicked, stack_, [this, fold] { stack_->setAllCollapsed(fold); });
  }
  connect(track_filter_, &QLineEdit::textChanged, stack_, &TimelineStack::setLaneFilter);
  // Every flow of the visible range as an arrow, not only the selected event's.
  auto* all_flows = tool_button(tr("All Flows"), QStringLiteral("traceAllFlows"));
  all_flows->setCheckable(true);
  all_flows->setToolTip(
      tr("Draw every flow of the visible range (a launch to its kernel); off: only the "
         "selected event's"));
  flow->addWidget(all_flows);
  connect(all_flows, &QToolButton::toggled, stack_, &TimelineStack::setAllFlowsShown);
  flow->addWidget(rules_);
  flow->addWidget(calibrate_);
  rules_->hide();
  calibrate_->hide();
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
  // In this row, whose search field gives way.
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
  bar2->addWidget(search_->field(), 1);
  bar2->addWidget(search_->previousButton());
  bar2->addWidget(search_->nextButton());
  bar2->addWidget(search_->matchLabel());
  track_filter_->setObjectName(QStringLiteral("traceTrackFilter"));
  track_filter_->setPlaceholderText(tr("Filter tracks"));
  track_filter_->setClearButtonEnabled(true);
  track_filter_->setMaximumWidth(170);
  track_filter_->setToolTip(
      tr("Only lanes whose title contains this text: a rank (\"rank 1\"), a process (\"GPU\"), a "
         "thread or a stream (\"stream 7\")"));
  bar2->addWidget(track_filter_);
  bar2->addWidget(alignment_->rankAlignField());
  bar2->addWidget(alignment_->alignBox());
  bar2->addWidget(diff_->categoryBox());
  bar2->addWidget(diff_->foldBox());
  bar2->addWidget(diff_->perStepBox());
  return bar2;
}

QWidget* TraceWorkspace::buildPanes() {
  view_a_->setObjectName(QStringLiteral("traceViewA"));
  view_b_->setObjectName(QStringLiteral("traceViewB"));
  sim_check_->hide();
  // Each trace scrolls vertically when its lanes do not fit (several ranks, deep stacks).
  scroll_a_ = new TraceScrollArea(view_a_);
  scroll_b_ = new TraceScrollArea(view_b_);
  pane_b_ = titled(label_b_, scroll_b_);
  splitter_->addWidget(titled(label_a_, scroll_a_));
  splitter_->addWidget(sim_check_);
  splitter_->addWidget(pane_b_);
  splitter_->addWidget(diff_->table());
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
  return splitter_;
}

}  // namespace slimpack::ui
