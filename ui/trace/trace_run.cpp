#include "trace/trace_run.h"

#include <chrono>

#include "jobs/job_tracker.h"
#include "jobs/qt_task_pool.h"

namespace slimpack::ui {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<RankSource> rank_sources(const TraceTimeline& run) {
  std::vector<RankSource> out;
  for (const TraceSource& s : run.sources()) out.push_back({s.trace, s.rank, s.label});
  return out;
}

std::shared_ptr<const ImportedTrace> merged_trace(const TraceTimeline& run) {
  return merge_rank_traces(rank_sources(run));
}

Expected<TraceRunView> load_trace_view(const TraceRunRequest& request, const CancelToken& cancel,
                                       ProgressSink& progress) {
  TraceRunView view;
  view.request = request;
  const auto t0 = std::chrono::steady_clock::now();
  // The rank files import at once on the workers (the pool runs part of the work on this thread,
  // so a busy pool cannot stall the load).
  QtTaskPool pool(JobTracker::workerPool());
  auto run = load_trace_run(request, /*keep_args=*/true, cancel, progress, pool);
  if (!run) return run.error();
  view.parse_seconds = seconds_since(t0);
  view.bytes = run->bytes;
  std::vector<TraceSource> sources;
  for (const RankTrace& r : run->ranks) sources.push_back({r.trace, r.rank, r.label});
  view.run = std::make_shared<const TraceRun>(std::move(*run));
  const auto t1 = std::chrono::steady_clock::now();
  progress.report("laying out the timeline", 0.95);
  auto timeline = TraceTimeline::build(std::move(sources));
  view.gantt = std::make_shared<const GanttModel>(timeline->gantt());
  view.timeline = std::move(timeline);
  view.build_seconds = seconds_since(t1);
  return view;
}

}  // namespace slimpack::ui
