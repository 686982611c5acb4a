#include "trace/trace_workspace.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "app/trace_run.h"
#include "jobs/job_tracker.h"
#include "trace/bubble_panel.h"
#include "trace/elided_label.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_label_width.h"
#include "trace/trace_scroll_area.h"
#include "trace/trace_sniff.h"
#include "trace/trace_summary_panel.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

std::vector<std::string> to_std(const QStringList& list) {
  std::vector<std::string> out;
  for (const QString& s : list) out.push_back(s.toStdString());
  return out;
}

}  // namespace

TraceWorkspace::TraceWorkspace(QWidget* parent)
    : QWidget(parent),
      jobs_(new JobTracker(this)),
      view_a_(new TraceView),
      view_b_(new TraceView),
      diff_(new TraceDiffModel(this)),
      table_(new QTableView),
      splitter_(new QSplitter(Qt::Vertical)),
      search_(new QLineEdit),
      rank_align_(new QLineEdit),
      align_(new QComboBox),
      category_(new QComboBox),
      fold_(new QCheckBox(tr("Fold digits"))),
      per_step_(new QCheckBox(tr("Per step"))),
      compare_(new QPushButton(tr("Compare with…"))),
      cancel_(new QPushButton(tr("Cancel"))),
      rules_(new QPushButton(tr("Mapping Rules…"))),
      calibrate_(new QPushButton(tr("Calibrate from Trace"))),
      progress_(new QProgressBar),
      status_(new QLabel),
      selection_(new QLabel),
      diff_jobs_(new JobTracker(this)),
      sim_check_(new SimCheckPanel),
      summary_(new TraceSummaryPanel),
      bubbles_(new BubblePanel),
      sim_button_(new QPushButton(tr("Measured vs Simulated"))),
      details_(new TraceDetailsPanel),
      prev_(new QToolButton),
      next_(new QToolButton),
      match_label_(new QLabel),
      label_a_(new ElidedLabel),
      label_b_(new ElidedLabel),
      track_filter_(new QLineEdit) {
  setObjectName(QStringLiteral("traceWorkspace"));
  jobs_->setInteractive(true);
  setUpControls();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(buildActionBar());
  layout->addLayout(buildSearchBar());
  layout->addWidget(buildPanes(), 1);
  auto* foot = new QHBoxLayout;
  foot->addWidget(status_, 1);
  foot->addWidget(selection_);
  layout->addLayout(foot);
  updateCompare();
  updateStatus();
  connectJobs();
  connectViews();
  connectSearch();
  connectCompare();
  // Run A, run B and the simulated Gantt share the plot's origin: one column width for all.
  label_width_ = new TraceLabelWidth({view_a_, view_b_, sim_check_->simulatedView()}, this);
  connect(label_width_, &TraceLabelWidth::widthChanged, this, [this](int px) {
    if (px <= 0) syncLabelWidths();  // back to automatic
  });
}

void TraceWorkspace::connectJobs() {
  connect(cancel_, &QPushButton::clicked, this, &TraceWorkspace::cancelLoad);
  connect(rules_, &QPushButton::clicked, this, [this] {
    if (run_a_.timeline) emit mappingRulesRequested(run_a_.timeline);
  });
  connect(calibrate_, &QPushButton::clicked, this, [this] {
    if (run_a_.timeline) emit calibrateRequested(run_a_.timeline);
  });
  for (JobTracker* t : {jobs_, diff_jobs_, &sim_check_->jobs(), &summary_->jobs(),
                        &bubbles_->jobs(), &details_->jobs(), &details_->statsJobs()})
    connect(t, &JobTracker::busyChanged, this, [this](bool on) {
      // Posted: a job's done() may start the next one (a load starts the diff).
      if (!on)
        QTimer::singleShot(0, this, [this] {
          if (!busy()) emit idle();
        });
    });
  connect(jobs_, &JobTracker::busyChanged, this, [this](bool busy) {
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    if (busy) progress_->setValue(0);
  });
  connect(jobs_, &JobTracker::progress, this, [this](const QString& stage, double fraction) {
    progress_->setValue(static_cast<int>(fraction * 1000));
    progress_->setFormat(stage.left(40));
  });
}

void TraceWorkspace::connectViews() {
  connect(rank_align_, &QLineEdit::editingFinished, this, [this] {
    if (rank_align_->text().trimmed().toStdString() != options_.align_event)
      alignRanksAt(rank_align_->text());
  });
  // One time axis: either view's zoom and pan moves the other.
  connect(view_a_, &GanttView::viewChanged, view_b_, [this](double t0, double t1) {
    if (comparing()) view_b_->setViewRange(t0, t1);
  });
  connect(view_b_, &GanttView::viewChanged, view_a_,
          [this](double t0, double t1) { view_a_->setViewRange(t0, t1); });
  GanttView* sim_view = sim_check_->simulatedView();
  // Linked only when the trace is a run of the plan: otherwise their scales differ (a 100 ms
  // trace beside a 9 s plan) and each keeps its own extent.
  connect(view_a_, &GanttView::viewChanged, sim_view, [this, sim_view](double t0, double t1) {
    if (simCheckVisible() && sim_view->model() && runMatchesPlan()) sim_view->setViewRange(t0, t1);
  });
  connect(sim_view, &GanttView::viewChanged, view_a_, [this](double t0, double t1) {
    if (simCheckVisible() && view_a_->model() && runMatchesPlan()) view_a_->setViewRange(t0, t1);
  });
  connect(sim_button_, &QPushButton::toggled, this, &TraceWorkspace::setSimCheckVisible);
  connect(sim_check_, &SimCheckPanel::checked, this, &TraceWorkspace::alignToUnits);
  connect(sim_check_, &SimCheckPanel::unitChosen, view_a_, &GanttView::setViewRange);
  for (TraceView* v : {view_a_, view_b_}) {
    connect(v, &TraceView::selectionChanged, this, [this](double t0, double t1) {
      selection_->setText(t1 >= t0 ? tr("Selection: %1 (from %2)")
                                         .arg(trace_duration_text(t1 - t0), trace_duration_text(t0))
                                   : QString());
    });
  }
}

TraceWorkspace::~TraceWorkspace() = default;

// Two timelines shown on one axis: both over the union of their extents, with 1% room at the end.
void TraceWorkspace::showOnOneAxis(GanttView* a, GanttView* b) {
  const TimeRange ea = a->model()->time_extent();
  const TimeRange eb = b->model()->time_extent();
  const double t0 = std::min(ea.t0, eb.t0);
  const double t1 = std::max(ea.t1, eb.t1);
  a->setViewRange(t0, t1 + (t1 - t0) * 0.01);
  b->setViewRange(t0, t1 + (t1 - t0) * 0.01);
}

bool TraceWorkspace::busy() const {
  return !offered_.isEmpty() || jobs_->busy() || diff_jobs_->busy() || sim_check_->jobs().busy() ||
         summary_->jobs().busy() || bubbles_->jobs().busy() || details_->busy();
}

bool TraceWorkspace::offerFile(const QString& path) {
  if (!looks_like_trace(path.toStdString())) return false;
  if (offered_.isEmpty()) QTimer::singleShot(0, this, &TraceWorkspace::flushOffered);
  offered_ << path;
  return true;
}

void TraceWorkspace::flushOffered() {
  const QStringList paths = offered_;
  offered_.clear();
  if (!paths.isEmpty()) openTraces(paths, Slot::A);
}

void TraceWorkspace::openTraces(const QStringList& paths, Slot slot) {
  if (paths.isEmpty()) return;
  TraceRunRequest request;
  request.files = to_std(paths);
  request.options = traceOptions();
  if (slot == Slot::B) {
    // Run B is another run: its clocks are its own (the compare view aligns the two runs).
    request.options.align_event.clear();
    request.options.offsets_us.clear();
  }
  jobs_->start(
      tr("Loading traces"),
      [request](const CancelToken& cancel, ProgressSink& progress) {
        return load_trace_view(request, cancel, progress);
      },
      [this, paths, slot](Expected<TraceRunView> run) {
        if (!run) {
          if (run.error().kind != ErrorKind::Cancelled)
            emit loadFailed(paths.front(), QString::fromStdString(run.error().message));
          return;
        }
        (slot == Slot::A ? paths_a_ : paths_b_) = paths;
        showRun(slot, std::move(*run));
        if (slot == Slot::A) emit opened(paths);
        if (slot == Slot::B) emit comparedWith(paths);
        if (slot == Slot::A && !pending_compare_.isEmpty())
          openTraces(std::exchange(pending_compare_, {}), Slot::B);
      });
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
  syncLabelWidths();
  if (!on) return;
  sim_check_->refreshIfStale();
  if (sim_check_->unitsOriginUs()) alignToUnits(*sim_check_->unitsOriginUs());
}

// One plot origin for every Gantt shown (A, B, simulated), so that one x is one time in all.
void TraceWorkspace::syncLabelWidths() {
  GanttView* sim = sim_check_->simulatedView();
  const bool with_sim = simCheckVisible() && sim->model();
  if (label_width_ && label_width_->apply()) return;  // the width the user dragged to
  for (GanttView* v : {static_cast<GanttView*>(view_a_), static_cast<GanttView*>(view_b_), sim})
    v->setLabelWidth(0);
  if (!comparing() && !with_sim) return;
  int w = view_a_->naturalLabelWidth();
  if (comparing()) w = std::max(w, view_b_->naturalLabelWidth());
  if (with_sim) w = std::max(w, sim->naturalLabelWidth());
  view_a_->setLabelWidth(w);
  if (comparing()) view_b_->setLabelWidth(w);
  if (with_sim) sim->setLabelWidth(w);
}

bool TraceWorkspace::simCheckVisible() const {
  return sim_button_->isChecked();
}

bool TraceWorkspace::runMatchesPlan() const {
  const auto& check = sim_check_->check();
  return check && run_plan_mismatch(*check).empty();
}

// Measured time zero at the first mapped unit, simulated time zero at the plan's start. When the
// trace can be a run of the plan the two share one axis showing the longer of the two; otherwise
// each view fits its own extent (one origin each, never pushed out of view by the other).
void TraceWorkspace::alignToUnits(double origin_us) {
  if (!run_a_.timeline || !simCheckVisible()) return;
  if (origin_us != run_a_.timeline->origin_us()) {
    run_a_.timeline = run_a_.timeline->with_origin(origin_us);
    view_a_->setTimeline(run_a_.timeline);
  }
  GanttView* sim_view = sim_check_->simulatedView();
  if (!sim_view->model() || !view_a_->model()) return;
  syncLabelWidths();
  if (!runMatchesPlan()) {  // two different runs: each on its own extent, no shared axis
    view_a_->fitToWindow();
    sim_view->fitToWindow();
    return;
  }
  showOnOneAxis(view_a_, sim_view);
}

void TraceWorkspace::cancelLoad() {
  jobs_->cancel();
}

void TraceWorkspace::showRun(Slot slot, TraceRunView run) {
  QElapsedTimer timer;
  timer.start();
  if (slot == Slot::A) {
    note_.clear();  // a calibration's line belongs to the run it came from
    run_a_ = std::move(run);
    run_b_ = {};
    view_a_->setTimeline(run_a_.timeline, run_a_.gantt);
    view_b_->setTimeline(nullptr);
    sim_check_->setMeasured(run_a_.run, run_a_.request);
    summary_->setRun(run_a_.run);
    details_->setTimeline(run_a_.timeline);
  } else {
    run_b_ = std::move(run);
    view_b_->setTimeline(run_b_.timeline, run_b_.gantt);
  }
  search_->clear();
  updateCompare();
  updateTitles();
  updateStatus();
  last_show_ms_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  emit loaded(slot == Slot::A ? 0 : 1);
}

QString TraceWorkspace::statusText() const {
  return status_->text();
}

void TraceWorkspace::updateStatus() {
  if (!run_a_.timeline) {
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
  QString text = QStringLiteral("A: ") + describe(run_a_);
  if (comparing()) text += QStringLiteral(" · B: ") + describe(run_b_);
  if (!status_message_.isEmpty())
    text += QStringLiteral(" · ") + status_message_;
  else if (!search_->text().isEmpty())
    text += tr(" · %1 %2 in A").arg(matches_a_).arg(matches_a_ == 1 ? tr("match") : tr("matches")) +
            (comparing() ? tr(", %1 in B").arg(matches_b_) : QString());
  if (!note_.isEmpty()) text += QStringLiteral(" · ") + note_;
  status_->setText(text);
}

}  // namespace slimpack::ui
