#pragma once
// Loading one run's trace files (one per rank) for the explorer's trace view: core/app's
// load_trace_run (ranks, alignment: the path `slimpack simulate --check-trace` takes), then the
// timeline and its first Gantt snapshot, all on a worker (TraceWorkspace runs it as a job).
#include <memory>
#include <string>
#include <vector>

#include "app/run_compare.h"
#include "app/trace_run.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "render/trace_timeline.h"

namespace slimpack::ui {

struct TraceRunView {
  std::shared_ptr<const TraceRun> run;  // the ranks as core/app loaded them
  TraceRunRequest request;              // what was asked for (files as given, options)
  std::shared_ptr<const TraceTimeline> timeline;
  std::shared_ptr<const GanttModel> gantt;  // every group expanded
  double parse_seconds = 0.0;               // import of all files
  double build_seconds = 0.0;               // timeline and first snapshot
  std::int64_t bytes = 0;                   // JSON text read (decompressed)
};

// Every file must import; the first failure names its file and is the result (nothing partial).
Expected<TraceRunView> load_trace_view(const TraceRunRequest& request,
                                       const CancelToken& cancel = CancelToken::none(),
                                       ProgressSink& progress = ProgressSink::none());

// The run's ranks as core/app's diff of two runs takes them (compare_runs).
std::vector<RankSource> rank_sources(const TraceTimeline& run);
// One trace holding every rank of a run: core/app's merge_rank_traces of rank_sources.
std::shared_ptr<const ImportedTrace> merged_trace(const TraceTimeline& run);

}  // namespace slimpack::ui
