#pragma once
// The window's running jobs in one place. Every JobTracker of the window registers here (the
// plan's, the sweep's, the search's, the export's and every trace job's), so that Escape, Run >
// Cancel and the status bar's indicator cover all of them: before, each caller listed the trackers
// it knew of, and a trace load ran with no indicator and could not be cancelled with Escape.
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace slimpack::ui {

class JobTracker;

class JobBoard : public QObject {
  Q_OBJECT
 public:
  explicit JobBoard(QObject* parent = nullptr);

  // Registers `jobs` once (later calls for the same tracker do nothing). `cancel` runs on
  // cancelAll() instead of jobs->cancel(): the plan's jobs also mark the result cancelled.
  void add(JobTracker* jobs, std::function<void()> cancel = {});
  // Registers every JobTracker among the QObject descendants of `root` not registered yet.
  void addChildrenOf(QObject* root);

  bool busy() const;
  int trackers() const { return static_cast<int>(entries_.size()); }
  // What runs, one name per busy tracker ("Loading trace", "Sweeping slice sizes"), in
  // registration order.
  QStringList running() const;
  // Cancels every busy job; returns how many there were.
  int cancelAll();

 signals:
  void busyChanged(bool busy);
  // The newest progress report of any registered job.
  void progress(const QString& job, const QString& stage, double fraction);

 private:
  struct Entry {
    QPointer<JobTracker> jobs;
    std::function<void()> cancel;
  };
  void onTrackerBusy();
  std::vector<Entry> entries_;
  bool busy_ = false;
};

}  // namespace slimpack::ui
