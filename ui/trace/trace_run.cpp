#include "trace/trace_run.h"

#include <chrono>
#include <filesystem>
#include <unordered_map>

#include "trace/trace_sniff.h"

namespace slimpack::ui {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Scales one file's progress into its share of the whole run.
class ShareProgress final : public ProgressSink {
 public:
  ShareProgress(ProgressSink& out, double from, double width, std::string prefix)
      : out_(out), from_(from), width_(width), prefix_(std::move(prefix)) {}
  void report(std::string_view stage, double fraction) override {
    out_.report(prefix_ + std::string(stage), from_ + width_ * fraction);
  }

 private:
  ProgressSink& out_;
  double from_;
  double width_;
  std::string prefix_;
};

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
    out->events += t.events;
    out->bytes += t.bytes;
    out->unmatched += t.unmatched;
    for (const auto& [ph, n] : t.by_phase) out->by_phase[ph] += n;
  }
  out->span_us = any ? last - first : 0.0;
  out->source = sources.front().label + " (+" + std::to_string(sources.size() - 1) + " ranks)";
  return out;
}

Expected<TraceRun> load_trace_run(const std::vector<std::string>& paths, const CancelToken& cancel,
                                  ProgressSink& progress) {
  if (paths.empty()) return Error::bad_input("no trace file given");
  TraceRun run;
  std::vector<TraceSource> sources;
  const auto t0 = std::chrono::steady_clock::now();
  const double share = 0.9 / static_cast<double>(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string name = std::filesystem::path(paths[i]).filename().string();
    ShareProgress sink(progress, share * static_cast<double>(i), share, name + ": ");
    auto trace = import_chrome_trace(paths[i], {}, cancel, sink);
    if (!trace) return trace.error();
    if (cancel.cancelled()) return Error::cancelled();
    run.bytes += trace->bytes;
    const int rank = trace->rank >= 0 ? trace->rank : rank_from_file_name(paths[i]);
    sources.push_back({std::make_shared<const ImportedTrace>(std::move(*trace)), rank, name});
  }
  run.parse_seconds = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  progress.report("laying out the timeline", 0.95);
  auto timeline = TraceTimeline::build(std::move(sources));
  run.gantt = std::make_shared<const GanttModel>(timeline->gantt());
  run.timeline = std::move(timeline);
  run.build_seconds = seconds_since(t1);
  return run;
}

}  // namespace slimpack::ui
