#pragma once
// The timeline of one run's imported traces (one file per rank) as Gantt rows, so the plan's
// widget, painter, level of detail and hit testing draw it unchanged. Built once per run (the
// nesting depth of every event, the ids of events), then cheap GanttModel snapshots are cut from
// it for each set of collapsed groups and each alignment.
//
// Rows: one group per (rank, process); inside it one lane per thread or GPU stream, and one row
// per nesting depth of that lane (CPU annotations nest: ProfilerStep > forward > aten::linear).
// A collapsed group is one row holding the top-level events of all its lanes.
// Colours: by name (the same in every rank and run); the events of slimpack's own export of a plan
// (categories "forward" and "backward") take the plan's blue and orange.
// Times: seconds after the run's origin (TraceRunOptions::origin_us), so that two runs aligned at
// different events share one axis.
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "render/gantt_model.h"
#include "trace/trace_import.h"

namespace slimpack {

// One rank's trace of a run.
struct TraceSource {
  std::shared_ptr<const ImportedTrace> trace;
  int rank = -1;      // -1: unknown (then the source's position is shown)
  std::string label;  // file name, for titles and tooltips
};

// One row of the expanded timeline (see rows()).
struct TraceRowInfo {
  std::int32_t source = 0;
  std::int32_t lane = 0;   // index into the source trace's lanes
  std::int32_t depth = 0;  // nesting depth shown by the row
  std::int32_t group = 0;
  bool pinned_lane = false;  // a lane pinned on its own, shown above every group
  // A counter track's row (an index into TraceTimeline::counters(); lane -1, no bars), under its
  // group's lanes; -1: an event row.
  std::int32_t counter = -1;
};

// One counter track of the view: a counter series of one process (its "C" events), or a device's
// memory allocated over time from the "[memory]" events, under that process's lanes.
struct TraceCounterView {
  std::int32_t source = 0;
  std::int32_t group = 0;  // the group it is shown under
  std::string label;       // "GPU memory · allocated", "memory allocated · cuda:0", "(pid 3)"
  // Bytes: the "[memory]" events, or a "C" counter whose name or series says memory or bytes
  // ("GPU memory · allocated"), drawn and labelled as sizes ("max 2.10 MB").
  bool memory = false;
  // The value from each point's time (file microseconds) until the next point.
  std::shared_ptr<const std::vector<TraceCounterPoint>> points;
  double max = 0.0;  // the largest value (memory: trace_memory's peak allocated)
  double max_us = 0.0;
};

// Which rows a snapshot shows (the trace view's track list).
struct TraceRowOptions {
  std::set<int> collapsed;  // groups folded to one row
  // Only lanes whose title (lane_title: "rank 1 · python3 / thread 7") contains this text,
  // case-insensitive; a group none of whose lanes passes is left out (a folded group stays whole).
  // Empty: every lane.
  std::string filter;
  std::vector<int> pinned;  // groups shown first, in this order (the rest keep theirs)
  // Single lanes (source, lane) shown above everything, in this order, whatever the filter and
  // their group's folding, as Perfetto pins one track; an unfolded group no longer shows them.
  std::vector<std::pair<int, int>> pinned_lanes;
};

struct TraceGroupInfo {
  std::int32_t source = 0;
  std::string pid;
  std::string label;                // "rank 1 · python3" / "GPU 0"
  std::vector<std::int32_t> lanes;  // source lanes in the group, in file order
};

// What one event is, resolved from a Trace bar's id.
struct TraceEventRef {
  std::int32_t source = -1;
  std::int32_t lane = -1;
  std::int32_t index = -1;  // into ImportedTrace::lanes[lane].events (instant: .instants)
  bool instant = false;     // an instant event ("i"): a marker, no bar
  bool valid() const { return source >= 0; }
  bool operator==(const TraceEventRef&) const = default;
};

class TraceTimeline : public std::enable_shared_from_this<TraceTimeline> {
 public:
  // Rows deeper than this share the last row (pathological nesting stays bounded).
  static constexpr int kMaxDepth = 24;

  // `origin_us`: the time shown as zero; without it the run's first event start.
  static std::shared_ptr<TraceTimeline> build(std::vector<TraceSource> sources,
                                              std::optional<double> origin_us = std::nullopt);

  const std::vector<TraceSource>& sources() const { return sources_; }
  const std::vector<TraceGroupInfo>& groups() const { return groups_; }
  double origin_us() const { return origin_us_; }
  double first_start_us() const { return first_start_us_; }  // earliest event of the run
  std::int64_t event_count() const { return static_cast<std::int64_t>(depth_->size()); }
  // Deepest nesting of a source lane (0 when flat).
  int lane_depth(int source, int lane) const;

  // The counter tracks, by group then label (TraceRowInfo::counter indexes them).
  const std::vector<TraceCounterView>& counters() const { return counters_; }
  // Instant events (TraceEventRef::instant) of every lane whose name passes
  // `match(source, name index)`, lane by lane in time order; empty `text`: none.
  std::vector<TraceEventRef> find_instants(const std::string& text) const;
  template <class Match>
  std::vector<TraceEventRef> instants_where(Match match) const;
  std::int64_t instant_count() const;

  // A copy of this timeline with another origin (the depth table and ids are shared).
  std::shared_ptr<TraceTimeline> with_origin(double origin_us) const;

  // The Gantt rows with the groups in `collapsed` (indices into groups()) folded to one row.
  // Row i's info is rows(collapsed)[i]; a collapsed group's row has lane -1.
  GanttModel gantt(const std::set<int>& collapsed = {}) const;
  std::vector<TraceRowInfo> rows(const std::set<int>& collapsed = {}) const;
  // The same with lanes filtered and groups pinned to the top.
  GanttModel snapshot(const TraceRowOptions& options) const;
  std::vector<TraceRowInfo> rows_for(const TraceRowOptions& options) const;
  // A lane's title: its group's label and the thread or stream name.
  std::string lane_title(int source, int lane) const;

  // The event behind a Trace bar of a model this timeline built.
  TraceEventRef locate(std::int32_t id) const;
  const TraceEvent* event(TraceEventRef ref) const;
  const TraceEvent* event(const GanttModel& model, BarRef bar) const;
  const std::string& name(TraceEventRef ref) const;
  const std::string& category(TraceEventRef ref) const;
  // The event's "args" as compact JSON, empty when the importer kept none.
  const std::string& args(TraceEventRef ref) const;
  int depth(std::int32_t id) const { return (*depth_)[static_cast<std::size_t>(id)]; }
  // The id of an event (what locate() undoes); -1 for an invalid ref.
  std::int32_t id_of(TraceEventRef ref) const;
  // The group holding a source lane; -1 when none.
  int group_of(int source, int lane) const;

  // First start (in the file's microseconds) of an event named exactly `name` in any source; for
  // aligning two runs at the same event ("ProfilerStep#3").
  std::optional<double> first_start_of(const std::string& name) const;
  // Distinct names starting with `prefix` ("ProfilerStep#"), sorted, for the alignment menu.
  std::vector<std::string> names_with_prefix(const std::string& prefix) const;

  // Bars of `model` whose event name passes `match(source, name index)`, in (lane, bar) order.
  // `match` gets each interned name once per source: the search is one pass over the bars.
  // With `category` not empty, only events of that category ("kernel", "cpu_op") are selected
  // (the diff table filtered by category marks only what its row counts).
  template <class Match>
  std::vector<BarRef> select(const GanttModel& model, Match match,
                             const std::string& category = {}) const;

  // Bars whose name contains `text` (case-insensitive); empty text selects nothing.
  std::vector<BarRef> find_name(const GanttModel& model, const std::string& text) const;

 private:
  // The name table of the event's source (names and categories share it).
  const std::vector<std::string>& names_of(TraceEventRef ref) const;
  // `cat_mask` empty: any category; else indexed like `mask` by the event's category.
  std::vector<BarRef> select_mask(const GanttModel& model,
                                  const std::vector<std::vector<char>>& mask,
                                  const std::vector<std::vector<char>>& cat_mask) const;

  void build_counters();  // trace_timeline_counters.cpp

  std::vector<TraceSource> sources_;
  std::vector<TraceGroupInfo> groups_;
  std::vector<TraceCounterView> counters_;
  // Flattened (source, lane) pairs; an event's id is lane_offset_[k] + its index in the lane.
  std::vector<std::int32_t> flat_source_;
  std::vector<std::int32_t> flat_lane_;
  std::vector<std::int64_t> lane_offset_;                   // size flat + 1
  std::vector<std::vector<std::int32_t>> flat_of_;          // [source][lane] -> k
  std::shared_ptr<const std::vector<std::uint8_t>> depth_;  // per event id (shared by copies)
  std::vector<std::vector<std::uint8_t>> max_depth_;        // [source][lane]
  std::vector<std::vector<std::int8_t>> colour_;            // [source][name index]
  // [source]: the name indices of the categories "forward" and "backward" (-1: none), coloured
  // like the plan's passes.
  std::vector<std::pair<std::int32_t, std::int32_t>> pass_cat_;
  double origin_us_ = 0.0;
  double first_start_us_ = 0.0;
};

template <class Match>
std::vector<TraceEventRef> TraceTimeline::instants_where(Match match) const {
  std::vector<TraceEventRef> out;
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    const ImportedTrace& t = *sources_[s].trace;
    std::vector<std::int8_t> mask(t.names.size(), -1);  // each name asked once
    for (std::size_t l = 0; l < t.lanes.size(); ++l) {
      const auto& instants = t.lanes[l].instants;
      for (std::size_t i = 0; i < instants.size(); ++i) {
        const auto n = static_cast<std::size_t>(instants[i].name);
        if (mask[n] < 0) mask[n] = match(static_cast<int>(s), static_cast<int>(n)) ? 1 : 0;
        if (mask[n])
          out.push_back({static_cast<std::int32_t>(s), static_cast<std::int32_t>(l),
                         static_cast<std::int32_t>(i), true});
      }
    }
  }
  return out;
}

template <class Match>
std::vector<BarRef> TraceTimeline::select(const GanttModel& model, Match match,
                                          const std::string& category) const {
  std::vector<std::vector<char>> mask(sources_.size());
  std::vector<std::vector<char>> cat_mask(category.empty() ? 0 : sources_.size());
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    const auto& names = sources_[s].trace->names;
    mask[s].resize(names.size());
    for (std::size_t n = 0; n < names.size(); ++n)
      mask[s][n] = match(static_cast<int>(s), static_cast<int>(n)) ? 1 : 0;
    if (category.empty()) continue;
    cat_mask[s].resize(names.size());
    for (std::size_t n = 0; n < names.size(); ++n) cat_mask[s][n] = names[n] == category ? 1 : 0;
  }
  return select_mask(model, mask, cat_mask);
}

}  // namespace slimpack
