#pragma once
// File > Export: the Gantt (or the whole comparison) as PNG with a scale factor, SVG or PDF with
// title, legend and key metrics; the plan's Chrome trace; a CSV of the ops; the image to the
// clipboard. Exports run on a worker over the immutable snapshot and write by the output-file rule
// (common/output_file.h: a regular file is replaced atomically, so a partial file never remains; a
// pipe or device is written in place); only the clipboard is touched on the GUI thread.
#include <QObject>
#include <QString>
#include <vector>

#include "app/compare.h"
#include "app/explorer_snapshot.h"
#include "jobs/explorer_inputs.h"
#include "jobs/job_tracker.h"
#include "painter/gantt_export.h"

namespace slimpack::ui {

class Exporter : public QObject {
  Q_OBJECT
 public:
  enum class Kind { Image, ChromeTrace, OpsCsv };
  explicit Exporter(QObject* parent = nullptr);

  // What to export: the current snapshot, or the comparison when it is non-empty.
  void setSources(SnapshotPtr snapshot, std::vector<CompareEntry> comparison);
  // Whether the sources describe the current inputs (ViewStates, by the one staleness rule): a
  // greyed result is not exported as if it were current; its export actions are disabled.
  void setFresh(bool snapshot, bool comparison);
  // Whether `kind` would export a result of the current inputs (and there is one).
  bool canExport(Kind kind) const;
  // Images show the comparison instead of the single Gantt while the compare view is in front.
  void setComparisonActive(bool on);
  bool comparisonActive() const { return comparison_active_ && !comparison_.empty(); }
  void setImageOptions(const GanttExportOptions& options) { image_options_ = options; }
  // The options an image export of the current sources uses: the memory cap, and (a single Gantt
  // without a title of its own) the title naming workload, p, t, d, S, strategy and iteration.
  GanttExportOptions optionsFor(bool comparison) const;

  // Image kind from the extension (.png/.svg/.pdf).
  void exportTo(Kind kind, const QString& path);
  void copyImageToClipboard();
  JobTracker& jobs() { return jobs_; }

 signals:
  void exported(const QString& path);
  void failed(const QString& message);
  // canExport may have changed (freshness, sources, the view in front).
  void exportableChanged();

 private:
  SnapshotPtr snapshot_;
  std::vector<CompareEntry> comparison_;
  GanttExportOptions image_options_;
  bool comparison_active_ = false;
  bool snapshot_fresh_ = true;
  bool comparison_fresh_ = true;
  JobTracker jobs_;
};

}  // namespace slimpack::ui
