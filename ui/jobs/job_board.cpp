#include "jobs/job_board.h"

#include <algorithm>

#include "jobs/job_tracker.h"

namespace slimpack::ui {

JobBoard::JobBoard(QObject* parent) : QObject(parent) {}

void JobBoard::add(JobTracker* jobs, std::function<void()> cancel) {
  if (!jobs || std::any_of(entries_.begin(), entries_.end(),
                           [jobs](const Entry& e) { return e.jobs == jobs; }))
    return;
  entries_.push_back({jobs, std::move(cancel)});
  connect(jobs, &JobTracker::busyChanged, this, &JobBoard::onTrackerBusy);
  connect(jobs, &JobTracker::progress, this, [this, jobs](const QString& stage, double fraction) {
    emit progress(jobs->currentName(), stage, fraction);
  });
  connect(jobs, &QObject::destroyed, this, [this] {
    // A tracker that goes while busy (a closed panel) no longer holds the board busy.
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [](const Entry& e) { return e.jobs.isNull(); }),
                   entries_.end());
    onTrackerBusy();
  });
  onTrackerBusy();
}

void JobBoard::addChildrenOf(QObject* root) {
  for (JobTracker* jobs : root->findChildren<JobTracker*>()) add(jobs);
}

bool JobBoard::busy() const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [](const Entry& e) { return e.jobs && e.jobs->busy(); });
}

QStringList JobBoard::running() const {
  QStringList names;
  for (const Entry& e : entries_)
    if (e.jobs && e.jobs->busy()) names << e.jobs->currentName();
  return names;
}

int JobBoard::cancelAll() {
  // A cancel hook may cancel other registered trackers too (the controller's cancels all four of
  // its own): take the busy ones first, then cancel those still busy.
  std::vector<Entry> busy_now;
  for (const Entry& e : entries_)
    if (e.jobs && e.jobs->busy()) busy_now.push_back(e);
  for (const Entry& e : busy_now) {
    if (!e.jobs || !e.jobs->busy()) continue;
    if (e.cancel)
      e.cancel();
    else
      e.jobs->cancel();
  }
  return static_cast<int>(busy_now.size());
}

void JobBoard::onTrackerBusy() {
  const bool now = busy();
  if (now == busy_) return;
  busy_ = now;
  emit busyChanged(now);
}

}  // namespace slimpack::ui
