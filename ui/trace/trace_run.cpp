#include "trace/trace_run.h"

#include <chrono>
#include <unordered_map>

#include "jobs/job_tracker.h"
#include "jobs/qt_task_pool.h"

namespace slimpack::ui {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::shared_ptr<const ImportedTrace> merged_trace(const TraceTimeline& run) {
  const auto& sources = run.sources();
  if (sources.empty()) return nullptr;
  if (sources.size() == 1) return sources.front().trace;
  auto out = std::make_shared<ImportedTrace>();
  std::unordered_map<std::string, std::int32_t> ids;
  auto intern = [&](const std::string& s) {
    const auto [it, fresh] = ids.try_emplace(s, static_cast<std::int32_t>(out->names.size()));
    if (fresh) out->names.push_back(s);
    return it->second;
  };
  double first = 0.0, last = 0.0;
  bool any = false;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const ImportedTrace& t = *sources[s].trace;
    std::vector<std::int32_t> map(t.names.size());
    for (std::size_t n = 0; n < t.names.size(); ++n) map[n] = intern(t.names[n]);
    const std::string prefix =
        "rank " + std::to_string(sources[s].rank >= 0 ? sources[s].rank : static_cast<int>(s)) +
        ":";
    for (const TraceLane& lane : t.lanes) {
      TraceLane copy = lane;
      copy.pid = prefix + lane.pid;
      for (TraceEvent& e : copy.events) {
        if (e.name >= 0) e.name = map[static_cast<std::size_t>(e.name)];
        if (e.cat >= 0) e.cat = map[static_cast<std::size_t>(e.cat)];
        e.args = -1;
        first = any ? std::min(first, e.start_us) : e.start_us;
        last = any ? std::max(last, e.start_us + e.dur_us) : e.start_us + e.dur_us;
        any = true;
      }
      out->lanes.push_back(std::move(copy));
    }
    // Flow points too (GPU work belongs to the step of its launch): lanes offset, ids per rank.
    const auto lane_base = static_cast<std::int32_t>(out->lanes.size() - t.lanes.size());
    for (const TraceFlowPoint& f : t.flows) {
      TraceFlowPoint copy = f;
      copy.lane = f.lane >= 0 ? lane_base + f.lane : -1;
      copy.id = intern(prefix + t.names[static_cast<std::size_t>(f.id)]);
      copy.cat = map[static_cast<std::size_t>(f.cat)];
      out->flows.push_back(copy);
    }
    out->events += t.events;
    out->bytes += t.bytes;
    out->unmatched += t.unmatched;
    for (const auto& [ph, n] : t.by_phase) out->by_phase[ph] += n;
  }
  out->span_us = any ? last - first : 0.0;
  out->source = sources.front().label + " (+" + std::to_string(sources.size() - 1) + " ranks)";
  return out;
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
