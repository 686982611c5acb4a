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
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "app/trace_run.h"
#include "jobs/job_tracker.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_scroll_area.h"
#include "trace/trace_sniff.h"
#include "trace/trace_summary_panel.h"
#include "trace/trace_units.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

constexpr int kAskRole = Qt::UserRole + 1;  // the "Align at event…" entry

struct DiffDone {
  std::shared_ptr<const ImportedTrace> a;
  std::shared_ptr<const ImportedTrace> b;
  TraceDiffModel::Result result;
};

constexpr const char* kTraceFilter = "Traces (*.json *.json.gz *.pt.trace.json);;All files (*)";

std::vector<std::string> to_std(const QStringList& list) {
  std::vector<std::string> out;
  for (const QString& s : list) out.push_back(s.toStdString());
  return out;
}

// Two timelines shown on one axis: both over the union of their extents, with 1% room at the end.
void showOnOneAxis(GanttView* a, GanttView* b) {
  const TimeRange ea = a->model()->time_extent();
  const TimeRange eb = b->model()->time_extent();
  const double t0 = std::min(ea.t0, eb.t0);
  const double t1 = std::max(ea.t1, eb.t1);
  a->setViewRange(t0, t1 + (t1 - t0) * 0.01);
  b->setViewRange(t0, t1 + (t1 - t0) * 0.01);
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
      sim_button_(new QPushButton(tr("Measured vs Simulated"))) {
  setObjectName(QStringLiteral("traceWorkspace"));
  jobs_->setInteractive(true);
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
  align_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  category_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  align_->setToolTip(tr("How the two runs share the time axis"));
  category_->setToolTip(tr("Only events of this category in the diff table"));
  fold_->setToolTip(
      tr("Count names that differ only in digits together (ProfilerStep#12 and #13)"));
  progress_->setMaximumWidth(180);
  // The status line wraps: its long lines (the opening hint, a calibration's profile path) must
  // not set the window's minimum width.
  status_->setWordWrap(true);
  progress_->setRange(0, 1000);
  progress_->hide();
  cancel_->hide();
  compare_->setEnabled(false);

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
  bar->addWidget(rules_);
  bar->addWidget(calibrate_);
  rules_->hide();
  calibrate_->hide();
  bar->addStretch(1);
  bar->addWidget(progress_);
  bar->addWidget(cancel_);
  auto* bar2 = new QHBoxLayout;
  bar2->addWidget(search_, 1);
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
  splitter_->addWidget(new TraceScrollArea(view_a_));
  splitter_->addWidget(sim_check_);
  splitter_->addWidget(new TraceScrollArea(view_b_));
  splitter_->addWidget(table_);
  splitter_->addWidget(summary_);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 3);
  splitter_->setStretchFactor(2, 3);
  splitter_->setStretchFactor(3, 2);
  view_b_->hide();
  table_->hide();

  auto* foot = new QHBoxLayout;
  foot->addWidget(status_, 1);
  foot->addWidget(selection_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addLayout(bar2);
  layout->addWidget(splitter_, 1);
  layout->addLayout(foot);
  updateCompare();
  updateStatus();

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
  connect(cancel_, &QPushButton::clicked, this, &TraceWorkspace::cancelLoad);
  connect(rules_, &QPushButton::clicked, this, [this] {
    if (run_a_.timeline) emit mappingRulesRequested(run_a_.timeline);
  });
  connect(calibrate_, &QPushButton::clicked, this, [this] {
    if (run_a_.timeline) emit calibrateRequested(run_a_.timeline);
  });
  for (JobTracker* t : {jobs_, diff_jobs_, &sim_check_->jobs(), &summary_->jobs()})
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
  connect(rank_align_, &QLineEdit::editingFinished, this, [this] {
    if (rank_align_->text().trimmed().toStdString() != options_.align_event)
      alignRanksAt(rank_align_->text());
  });
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) { search(t); });
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

TraceWorkspace::~TraceWorkspace() = default;

bool TraceWorkspace::busy() const {
  return !offered_.isEmpty() || jobs_->busy() || diff_jobs_->busy() || sim_check_->jobs().busy() ||
         summary_->jobs().busy();
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
  } else {
    run_b_ = std::move(run);
    view_b_->setTimeline(run_b_.timeline, run_b_.gantt);
  }
  search_->clear();
  updateCompare();
  updateStatus();
  last_show_ms_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  emit loaded(slot == Slot::A ? 0 : 1);
}

void TraceWorkspace::updateCompare() {
  compare_->setEnabled(static_cast<bool>(run_a_.timeline));
  const bool cmp = comparing();
  view_b_->setVisible(cmp);
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
        DiffDone out;
        out.a = merged_trace(*a);
        out.b = merged_trace(*b);
        out.result = TraceDiffModel::compute(out.a.get(), out.b.get(), options);
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

int TraceWorkspace::search(const QString& text) {
  if (search_->text() != text) {
    const QSignalBlocker block(search_);
    search_->setText(text);
  }
  matches_a_ = matches_b_ = 0;
  const std::string needle = text.toStdString();
  for (TraceView* v : {view_a_, view_b_}) {
    if (!v->timeline() || !v->model()) continue;
    if (needle.empty()) {
      v->clearMarks();
      continue;
    }
    v->setMarked(v->timeline()->find_name(*v->model(), needle));
    (v == view_a_ ? matches_a_ : matches_b_) = static_cast<int>(v->marked().size());
  }
  updateStatus();
  return matches_a_;
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
