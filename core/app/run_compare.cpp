#include "app/run_compare.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "app/trace_compare_report.h"

namespace slimpack {
namespace {

void add_categories(const ImportedTrace* t, std::set<std::string>& out) {
  if (!t) return;
  std::vector<char> seen(t->names.size(), 0);
  for (const TraceLane& lane : t->lanes)
    for (const TraceEvent& e : lane.events)
      if (e.cat >= 0 && static_cast<std::size_t>(e.cat) < seen.size())
        seen[static_cast<std::size_t>(e.cat)] = 1;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i] && !t->names[i].empty()) out.insert(t->names[i]);
}

}  // namespace

std::vector<RankSource> rank_sources(const TraceRun& run) {
  std::vector<RankSource> out;
  for (const RankTrace& r : run.ranks) out.push_back({r.trace, r.rank, r.label});
  return out;
}

std::shared_ptr<const ImportedTrace> merge_rank_traces(const std::vector<RankSource>& sources) {
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
      // Instants carry names too (the trace view's markers): into the merged table, no args.
      for (TraceEvent& e : copy.instants) {
        if (e.name >= 0) e.name = map[static_cast<std::size_t>(e.name)];
        if (e.cat >= 0) e.cat = map[static_cast<std::size_t>(e.cat)];
        e.args = -1;
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

Expected<RunComparison> compare_runs(const std::vector<RankSource>& a,
                                     const std::vector<RankSource>& b,
                                     const TraceCompareOptions& options, bool steps_or_whole) {
  RunComparison out;
  out.options = options;
  out.a = merge_rank_traces(a);
  out.b = merge_rank_traces(b);
  if (!out.a || !out.b) return Error::bad_input("a run to compare has no trace");
  auto c = run_trace_compare(*out.a, *out.b, out.options);
  if (!c && steps_or_whole && out.options.steps && c.error().kind == ErrorKind::BadInput) {
    TraceCompareOptions whole = out.options;
    whole.steps.reset();
    auto w = run_trace_compare(*out.a, *out.b, whole);
    if (w) {
      c = std::move(w);
      out.whole_trace = true;
    }
  }
  if (!c) return c.error();
  out.comparison = std::move(*c);
  std::set<std::string> cats;
  add_categories(out.a.get(), cats);
  add_categories(out.b.get(), cats);
  out.categories.assign(cats.begin(), cats.end());
  return out;
}

Expected<RunComparison> compare_run_files(const std::vector<std::string>& a,
                                          const std::vector<std::string>& b,
                                          const TraceCompareOptions& options,
                                          const CancelToken& cancel) {
  std::vector<RankSource> sides[2];
  const std::vector<std::string>* files[2] = {&a, &b};
  for (int i = 0; i < 2; ++i) {
    TraceRunRequest request;
    request.files = *files[i];
    auto run = load_trace_run(request, /*keep_args=*/false, cancel);
    if (!run) return run.error();
    sides[i] = rank_sources(*run);
  }
  return compare_runs(sides[0], sides[1], options);
}

}  // namespace slimpack
