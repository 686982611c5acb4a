#include "trace/trace_loader.h"

#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <utility>

#include "jobs/job_tracker.h"
#include "trace/trace_sniff.h"

namespace slimpack::ui {
namespace {

std::vector<std::string> to_std(const QStringList& list) {
  std::vector<std::string> out;
  for (const QString& s : list) out.push_back(s.toStdString());
  return out;
}

}  // namespace

TraceLoader::TraceLoader(QObject* parent)
    : QObject(parent),
      jobs_(new JobTracker(this)),
      progress_(new QProgressBar),
      cancel_(new QPushButton(tr("Cancel"))) {
  jobs_->setInteractive(true);
  setUpProgress();
  connect(cancel_, &QPushButton::clicked, this, &TraceLoader::cancel);
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

// Not parented until the bar takes them: a loader whose widgets were never placed deletes them.
TraceLoader::~TraceLoader() {
  if (progress_ && !progress_->parent()) delete progress_;
  if (cancel_ && !cancel_->parent()) delete cancel_;
}

void TraceLoader::setUpProgress() {
  progress_->setMaximumWidth(180);
  // The load's progress and Cancel keep their room when hidden: a load that shows them must not
  // widen the bar, squeeze the docks or move the buttons under the pointer.
  for (QWidget* w : {static_cast<QWidget*>(progress_), static_cast<QWidget*>(cancel_)}) {
    QSizePolicy policy = w->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    w->setSizePolicy(policy);
  }
  progress_->setRange(0, 1000);
  progress_->hide();
  cancel_->hide();
}

bool TraceLoader::busy() const {
  return !offered_.isEmpty() || jobs_->busy();
}

bool TraceLoader::offerFile(const QString& path) {
  if (!looks_like_trace(path.toStdString())) return false;
  if (offered_.isEmpty()) QTimer::singleShot(0, this, &TraceLoader::flushOffered);
  offered_ << path;
  return true;
}

void TraceLoader::flushOffered() {
  const QStringList paths = offered_;
  offered_.clear();
  if (!paths.isEmpty()) open(paths, Slot::A);
}

void TraceLoader::reloadA() {
  if (!paths_a_.isEmpty()) open(paths_a_, Slot::A);
}

void TraceLoader::cancel() {
  jobs_->cancel();
}

void TraceLoader::open(const QStringList& paths, Slot slot) {
  if (paths.isEmpty()) return;
  TraceRunRequest request;
  request.files = to_std(paths);
  request.options = options_for_load_ ? options_for_load_() : options_;
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
        if (slot == Slot::A) {
          run_a_ = std::move(*run);
          run_b_ = {};
        } else {
          run_b_ = std::move(*run);
        }
        emit runLoaded(slot);
        if (slot == Slot::A) emit opened(paths);
        if (slot == Slot::B) emit comparedWith(paths);
        if (slot == Slot::A && !pending_compare_.isEmpty())
          open(std::exchange(pending_compare_, {}), Slot::B);
      });
}

bool TraceLoader::setOrigin(Slot slot, double origin_us) {
  TraceRunView& run = slot == Slot::A ? run_a_ : run_b_;
  if (!run.timeline || origin_us == run.timeline->origin_us()) return false;
  run.timeline = run.timeline->with_origin(origin_us);
  return true;
}

}  // namespace slimpack::ui
