#pragma once
// TraceLoader: brings the Traces tab's runs in. Paths offered in one turn of the event loop
// (several files dropped or named on the command line) load together as the ranks of one run;
// each run loads as a job (core/app's load_trace_run, then the timeline and its first snapshot:
// ui/trace/trace_run.h) with its progress and Cancel for the tab to show. It holds the runs as they
// loaded (run A, and run B to compare with), their files and the options files are opened with;
// a file that fails to load is reported through loadFailed and changes nothing held.
// Kept apart from the views: what a loaded run looks like is the workspace's business
// (runLoaded), so loading can be tested and reused without the tab's widgets.
#include <QObject>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStringList>
#include <functional>
#include <memory>

#include "trace/trace_run.h"

namespace slimpack::ui {

class JobTracker;

class TraceLoader : public QObject {
  Q_OBJECT

 public:
  enum class Slot { A, B };

  explicit TraceLoader(QObject* parent = nullptr);
  ~TraceLoader() override;

  // True when `path` looks like a trace (core/trace/trace_sniff.h): it is queued and loaded as
  // run A with the other traces offered in the same turn of the event loop.
  bool offerFile(const QString& path);
  // Loads `paths` as the ranks of one run into `slot` (A replaces both runs). Run B keeps its own
  // clocks (no rank alignment): the two runs are aligned by the compare view.
  void open(const QStringList& paths, Slot slot = Slot::A);
  // Run A's files again, with the current options (the ranks aligned at another event).
  void reloadA();
  // Opened once run A loaded (a restored session's run B).
  void setPendingCompare(const QStringList& paths) { pending_compare_ = paths; }
  void cancel();
  // Files offered and not loaded yet, or a load running.
  bool busy() const;
  JobTracker& jobs() const { return *jobs_; }

  // How files are opened (alignment, lanes, ...) and what a load asks for: these options with
  // what others add (the rules and GPU time of measured vs simulated), the workspace's choice.
  const TraceSpec& options() const { return options_; }
  void setOptions(const TraceSpec& options) { options_ = options; }
  void setOptionsForLoad(std::function<TraceSpec()> options) {
    options_for_load_ = std::move(options);
  }

  const TraceRunView& run(Slot slot) const { return slot == Slot::A ? run_a_ : run_b_; }
  const QStringList& paths(Slot slot) const { return slot == Slot::A ? paths_a_ : paths_b_; }
  bool comparing() const { return static_cast<bool>(run_b_.timeline); }
  // Gives a run's timeline another time zero (the same events); false when it had it already.
  bool setOrigin(Slot slot, double origin_us);

  // The load's progress and its Cancel button, for the tab to place: shown while a load runs,
  // their room kept when hidden (a load moves nothing).
  QProgressBar* progressBar() const { return progress_; }
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  void runLoaded(slimpack::ui::TraceLoader::Slot slot);  // held: show it
  void loadFailed(const QString& path, const QString& message);
  void opened(const QStringList& paths);        // run A's files, once they loaded
  void comparedWith(const QStringList& paths);  // run B's files, once they loaded

 private:
  void flushOffered();
  void setUpProgress();

  QStringList offered_;
  QStringList paths_a_;
  QStringList paths_b_;
  QStringList pending_compare_;
  JobTracker* jobs_;
  TraceRunView run_a_;
  TraceRunView run_b_;
  TraceSpec options_;
  std::function<TraceSpec()> options_for_load_;
  QPointer<QProgressBar> progress_;  // QPointer: their parent may delete them first
  QPointer<QPushButton> cancel_;
};

}  // namespace slimpack::ui
