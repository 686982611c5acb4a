#include "trace/trace_workspace.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <utility>

#include "jobs/job_tracker.h"
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

namespace slimpack::ui {
namespace {

// The same run, maybe with another origin (with_origin shares the imported traces).
bool same_run(const TraceTimeline* a, const TraceTimeline* b) {
  return a && b && !a->sources().empty() && !b->sources().empty() &&
         a->sources().front().trace == b->sources().front().trace;
}

QString run_title(const TraceTimeline& t) {
  const auto files = t.sources().size();
  QString title = QString::fromStdString(t.sources().front().label);
  if (files > 1) title += QObject::tr(" and %1 more files").arg(files - 1);
  return title;
}

}  // namespace

TraceWorkspace::TraceWorkspace(QWidget* parent)
    : QWidget(parent),
      loader_(new TraceLoader(this)),
      view_a_(new TraceView),
      view_b_(new TraceView),
      stack_(new TimelineStack(this)),
      sim_check_(new SimCheckPanel),
      summary_(new TraceSummaryPanel),
      bubbles_(new BubblePanel),
      details_(new TraceDetailsPanel),
      diff_(new TraceDiffPanel(*loader_, *stack_, this)),
      search_(new TraceSearch(*loader_, *stack_, view_a_, view_b_, details_, this)),
      alignment_(new TraceRunAlignment({loader_, stack_, view_a_, view_b_, sim_check_, diff_,
                                        [this] { return simCheckVisible(); }},
                                       this)),
      splitter_(new QSplitter(Qt::Vertical)),
      compare_(new QPushButton(tr("Compare with…"))),
      rules_(new QPushButton(tr("Mapping Rules…"))),
      calibrate_(new QPushButton(tr("Calibrate from Trace"))),
      status_(new QLabel),
      selection_(new QLabel),
      sim_button_(new QPushButton(tr("Measured vs Simulated"))),
      label_a_(new ElidedLabel),
      label_b_(new ElidedLabel),
      track_filter_(new QLineEdit) {
  setObjectName(QStringLiteral("traceWorkspace"));
  loader_->setOptionsForLoad([this] { return traceOptions(); });
  setUpControls();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(buildActionBar());
  layout->addLayout(buildSearchBar());
  layout->addWidget(buildPanes(), 1);
  auto* foot = new QHBoxLayout;
  foot->addWidget(status_, 1);
  foot->addWidget(selection_);
  foot->addWidget(loader_->progressBar());
  foot->addWidget(loader_->cancelButton());
  layout->addLayout(foot);
  updateCompare();
  updateStatus();
  connectJobs();
  connectLoader();
  connectViews();
  connectDetails();
  stackTimelines();
}

TraceWorkspace::~TraceWorkspace() = default;

// Run A, run B and the simulated Gantt: one plot origin, and one time range while each takes
// part (B while compared; the simulated Gantt while shown and the trace can be a run of the plan:
// otherwise their scales differ, a 100 ms trace beside a 9 s plan, and each keeps its own extent).
void TraceWorkspace::stackTimelines() {
  GanttView* sim_view = sim_check_->simulatedView();
  stack_->addView(view_a_);
  stack_->addView(view_b_, [this] { return comparing(); });
  stack_->addView(
      sim_view, [this, sim_view] { return simCheckVisible() && sim_view->model(); },
      [this, sim_view] {
        return simCheckVisible() && sim_view->model() && view_a_->model() && runMatchesPlan();
      });
}

void TraceWorkspace::connectJobs() {
  connect(rules_, &QPushButton::clicked, this, [this] {
    if (const auto& run = runA().timeline) emit mappingRulesRequested(run);
  });
  connect(calibrate_, &QPushButton::clicked, this, [this] {
    if (const auto& run = runA().timeline) emit calibrateRequested(run);
  });
  for (JobTracker* t : {&loader_->jobs(), &diff_->jobs(), &sim_check_->jobs(), &summary_->jobs(),
                        &bubbles_->jobs(), &details_->jobs(), &details_->statsJobs()})
    connect(t, &JobTracker::busyChanged, this, [this](bool on) {
      // Posted: a job's done() may start the next one (a load starts the diff).
      if (!on)
        QTimer::singleShot(0, this, [this] {
          if (!busy()) emit idle();
        });
    });
}

void TraceWorkspace::connectLoader() {
  connect(loader_, &TraceLoader::runLoaded, this, &TraceWorkspace::showRun);
  connect(loader_, &TraceLoader::loadFailed, this, &TraceWorkspace::loadFailed);
  connect(loader_, &TraceLoader::opened, this, &TraceWorkspace::opened);
  connect(loader_, &TraceLoader::comparedWith, this, &TraceWorkspace::comparedWith);
}

void TraceWorkspace::connectViews() {
  connect(sim_button_, &QPushButton::toggled, this, &TraceWorkspace::setSimCheckVisible);
  connect(sim_check_, &SimCheckPanel::checked, alignment_, &TraceRunAlignment::alignToUnits);
  connect(sim_check_, &SimCheckPanel::unitChosen, view_a_, &GanttView::setViewRange);
  connect(stack_, &TimelineStack::selectionChanged, this, [this](double t0, double t1) {
    selection_->setText(t1 >= t0 ? tr("Selection: %1 (from %2)")
                                       .arg(trace_duration_text(t1 - t0), trace_duration_text(t0))
                                 : QString());
  });
  connect(alignment_, &TraceRunAlignment::aligned, search_, &TraceSearch::refresh);
  connect(alignment_, &TraceRunAlignment::statusMessage, this, &TraceWorkspace::showStatusMessage);
  connect(search_, &TraceSearch::statusChanged, this, &TraceWorkspace::updateStatus);
  connect(search_, &TraceSearch::statusMessage, this, &TraceWorkspace::showStatusMessage);
  // A diff row's marks are what the status counts (as the search's are).
  connect(diff_, &TraceDiffPanel::rowMarked, this,
          [this](int in_a, int in_b, const QString& message) {
            search_->setMarkedCounts(in_a, in_b);
            showStatusMessage(message);
          });
}

// The details area follows the timelines: the event selected in either (a match of A becomes the
// current one), jumps from its lists (a child, a flow's other end, a match), A's selected range.
void TraceWorkspace::connectDetails() {
  connect(details_, &TraceDetailsPanel::jumpTo, this,
          [this](const TraceTimeline* t, TraceEventRef ref) {
            TraceView* v = comparing() && same_run(view_b_->timeline().get(), t) ? view_b_
                           : same_run(view_a_->timeline().get(), t)              ? view_a_
                                                                                 : nullptr;
            if (!v) return;
            v->revealEvent(ref);
            details_->describeEvent(v->timeline(), ref);
          });
  // An alignment gives run A another origin: the details follow (the same events).
  connect(view_a_, &GanttView::modelChanged, this, [this] {
    const auto& t = view_a_->timeline();
    if (t && details_->timeline() != t && same_run(details_->timeline().get(), t.get()))
      details_->rebase(t);
  });
  for (TraceView* v : {view_a_, view_b_}) {
    connect(v, &TraceView::eventSelected, this, [this, v](TraceEventRef ref) {
      if (!ref.valid()) return;
      details_->describeEvent(v->timeline(), ref);
      details_->setCurrentIndex(TraceDetailsPanel::EventTab);
      if (v == view_a_) search_->selectMatch(ref);
    });
    TraceScrollArea* area = v == view_a_ ? scroll_a_ : scroll_b_;
    // The view's height may change with the reveal (a group unfolded): scroll once the area
    // laid it out again.
    connect(v, &TraceView::rowsToReveal, area, [area](int top, int bottom) {
      QTimer::singleShot(0, area, [area, top, bottom] {
        area->ensureVisible(0, (top + bottom) / 2, 0, (bottom - top) / 2 + 24);
      });
    });
  }
  connect(view_a_, &TraceView::selectionChanged, this, [this](double t0, double t1) {
    details_->setSelectionRange(t1 > t0 ? std::optional(std::pair(t0, t1)) : std::nullopt,
                                view_a_->selectionLanes());
  });
}

bool TraceWorkspace::eventFilter(QObject* watched, QEvent* event) {
  // Run B's pane (its title and timeline) shows and hides with its scroll area, which follows
  // the view: code that hides view B hides all of it.
  if (watched == scroll_b_ && event->type() == QEvent::ShowToParent) pane_b_->show();
  if (watched == scroll_b_ && event->type() == QEvent::HideToParent) pane_b_->hide();
  return QWidget::eventFilter(watched, event);
}

void TraceWorkspace::updateTitles() {
  const TraceRunView& a = runA();
  const TraceRunView& b = loader_->run(Slot::B);
  label_a_->setText(a.timeline ? tr("A: %1").arg(run_title(*a.timeline)) : QString());
  label_a_->setVisible(static_cast<bool>(a.timeline));
  label_b_->setText(b.timeline ? tr("B: %1").arg(run_title(*b.timeline)) : QString());
  label_a_->setToolTip(loader_->paths(Slot::A).join(QLatin1Char('\n')));
  label_b_->setToolTip(loader_->paths(Slot::B).join(QLatin1Char('\n')));
}

bool TraceWorkspace::busy() const {
  return loader_->busy() || diff_->jobs().busy() || sim_check_->jobs().busy() ||
         summary_->jobs().busy() || bubbles_->jobs().busy() || details_->busy();
}

bool TraceWorkspace::offerFile(const QString& path) {
  return loader_->offerFile(path);
}

void TraceWorkspace::openTraces(const QStringList& paths, Slot slot) {
  loader_->open(paths, slot);
}

void TraceWorkspace::cancelLoad() {
  loader_->cancel();
}

JobTracker& TraceWorkspace::loadJobs() const {
  return loader_->jobs();
}

void TraceWorkspace::setMappingActionsVisible(bool rules, bool calibrate) {
  rules_->setVisible(rules);
  calibrate_->setVisible(calibrate);
}

void TraceWorkspace::setNote(const QString& note) {
  note_ = note;
  updateStatus();
}

void TraceWorkspace::setSimulation(SnapshotPtr snapshot) {
  sim_check_->setSimulation(std::move(snapshot));
}

void TraceWorkspace::setSimCheckVisible(bool on) {
  if (sim_button_->isChecked() != on) sim_button_->setChecked(on);  // toggled comes back here
  sim_check_->setVisible(on);
  stack_->syncLabelWidths();
  if (!on) return;
  sim_check_->refreshIfStale();
  if (sim_check_->unitsOriginUs()) alignment_->alignToUnits(*sim_check_->unitsOriginUs());
}

bool TraceWorkspace::simCheckVisible() const {
  return sim_button_->isChecked();
}

bool TraceWorkspace::runMatchesPlan() const {
  return sim_check_->matchesPlan();
}

// A run the loader holds now: on its view, and everything about run A follows it.
void TraceWorkspace::showRun(Slot slot) {
  QElapsedTimer timer;
  timer.start();
  const TraceRunView& run = loader_->run(slot);
  if (slot == Slot::A) {
    note_.clear();  // a calibration's line belongs to the run it came from
    view_a_->setTimeline(run.timeline, run.gantt);
    view_b_->setTimeline(nullptr);
    sim_check_->setMeasured(run.run, run.request);
    summary_->setRun(run.run);
    details_->setTimeline(run.timeline);
  } else {
    view_b_->setTimeline(run.timeline, run.gantt);
  }
  search_->clear();
  updateCompare();
  updateTitles();
  updateStatus();
  last_show_ms_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  emit loaded(slot == Slot::A ? 0 : 1);
}

void TraceWorkspace::updateCompare() {
  compare_->setEnabled(static_cast<bool>(runA().timeline));
  const bool cmp = comparing();
  view_b_->setVisible(cmp);
  pane_b_->setVisible(cmp);
  diff_->setShown(cmp);
  alignment_->setShown(cmp);
  stack_->syncLabelWidths();
  diff_->restart();
  alignment_->restart();
}

QString TraceWorkspace::statusText() const {
  return status_->text();
}

void TraceWorkspace::showStatusMessage(const QString& message) {
  status_message_ = message;
  updateStatus();
  status_message_.clear();
}

void TraceWorkspace::updateStatus() {
  if (!runA().timeline) {
    status_->setText(
        tr("Open Chrome Trace, Kineto or PyTorch profiler files (.json, .json.gz, "
           "*.pt.trace.json): File > Open, drag and drop, or the command line. "
           "Several files load as the ranks of one run."));
    return;
  }
  auto describe = [](const TraceRunView& r) {
    const auto files = r.timeline->sources().size();
    return QObject::tr("%1 (%2 %3, %4 events)")
        .arg(QString::fromStdString(r.timeline->sources().front().label))
        .arg(files)
        .arg(files == 1 ? QObject::tr("file") : QObject::tr("files"))
        .arg(r.timeline->event_count());
  };
  QString text = QStringLiteral("A: ") + describe(runA());
  if (comparing()) text += QStringLiteral(" · B: ") + describe(loader_->run(Slot::B));
  const int in_a = search_->markedInA();
  if (!status_message_.isEmpty())
    text += QStringLiteral(" · ") + status_message_;
  else if (!search_->text().isEmpty())
    text += tr(" · %1 %2 in A").arg(in_a).arg(in_a == 1 ? tr("match") : tr("matches")) +
            (comparing() ? tr(", %1 in B").arg(search_->markedInB()) : QString());
  if (!note_.isEmpty()) text += QStringLiteral(" · ") + note_;
  status_->setText(text);
}

}  // namespace slimpack::ui
