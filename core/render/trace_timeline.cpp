#include "render/trace_timeline.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

namespace slimpack {
namespace {

constexpr double kSecondsPerUs = 1e-6;
constexpr int kColours = 8;  // GanttPalette::trace
// GanttPalette::trace's blue and orange (every theme), the plan's forward and backward families.
constexpr int kForwardColour = 0;
constexpr int kBackwardColour = 1;

// Same name, same colour, in every rank and run (FNV-1a).
std::int8_t colour_of(const std::string& name) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return static_cast<std::int8_t>(h % kColours);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// `rank_shared`: another file of the run claims the same rank (files of two runs opened together,
// or copies): the file name keeps their groups apart.
std::string group_label(const TraceSource& src, int source_index, int source_count,
                        bool rank_shared, const TraceLane& lane) {
  std::string label;
  if (src.rank >= 0)
    label =
        "rank " + std::to_string(src.rank) + (rank_shared ? " (" + src.label + ")" : "") + " · ";
  else if (source_count > 1)
    label = "file " + std::to_string(source_index + 1) + " · ";
  const std::string process = process_label(lane);  // "python3 (GPU 0)": with process_labels
  label += process.empty() ? "pid " + lane.pid : process;
  return label;
}

std::string lane_name(const TraceLane& lane) {
  return lane.thread_name.empty() ? "tid " + lane.tid : lane.thread_name;
}

const std::string kEmpty;

// An interned string of a trace's table, or "" for an index out of range (-1 = none).
const std::string& text_at(const std::vector<std::string>& table, std::int32_t index) {
  return index >= 0 && static_cast<std::size_t>(index) < table.size()
             ? table[static_cast<std::size_t>(index)]
             : kEmpty;
}

}  // namespace

std::shared_ptr<TraceTimeline> TraceTimeline::build(std::vector<TraceSource> sources,
                                                    std::optional<double> origin_us) {
  auto t = std::make_shared<TraceTimeline>();
  t->sources_ = std::move(sources);
  // Ranks in order; sources of unknown rank keep their place after the known ones.
  std::stable_sort(t->sources_.begin(), t->sources_.end(),
                   [](const TraceSource& a, const TraceSource& b) {
                     const int ra = a.rank < 0 ? std::numeric_limits<int>::max() : a.rank;
                     const int rb = b.rank < 0 ? std::numeric_limits<int>::max() : b.rank;
                     return ra < rb;
                   });
  const int nsrc = static_cast<int>(t->sources_.size());
  std::int64_t total = 0;
  double first = std::numeric_limits<double>::infinity();
  t->flat_of_.resize(t->sources_.size());
  t->max_depth_.resize(t->sources_.size());
  t->colour_.resize(t->sources_.size());
  t->lane_offset_.push_back(0);
  for (int s = 0; s < nsrc; ++s) {
    const ImportedTrace& tr = *t->sources_[static_cast<std::size_t>(s)].trace;
    auto& colours = t->colour_[static_cast<std::size_t>(s)];
    colours.reserve(tr.names.size());
    for (const auto& n : tr.names) colours.push_back(colour_of(n));
    // Categories "forward" / "backward": our own export of a simulated plan (chrome_trace.h).
    auto index_of = [&tr](const char* n) {
      const auto it = std::find(tr.names.begin(), tr.names.end(), n);
      return it == tr.names.end() ? -1 : static_cast<std::int32_t>(it - tr.names.begin());
    };
    t->pass_cat_.emplace_back(index_of("forward"), index_of("backward"));
    t->flat_of_[static_cast<std::size_t>(s)].resize(tr.lanes.size());
    t->max_depth_[static_cast<std::size_t>(s)].assign(tr.lanes.size(), 0);
    std::map<std::string, int> group_of_pid;
    for (std::size_t l = 0; l < tr.lanes.size(); ++l) {
      const TraceLane& lane = tr.lanes[l];
      t->flat_of_[static_cast<std::size_t>(s)][l] = static_cast<std::int32_t>(t->flat_lane_.size());
      t->flat_source_.push_back(s);
      t->flat_lane_.push_back(static_cast<std::int32_t>(l));
      total += static_cast<std::int64_t>(lane.events.size());
      t->lane_offset_.push_back(total);
      if (!lane.events.empty()) first = std::min(first, lane.events.front().start_us);
      auto [it, fresh] = group_of_pid.try_emplace(lane.pid, static_cast<int>(t->groups_.size()));
      if (fresh) {
        TraceGroupInfo g;
        g.source = s;
        g.pid = lane.pid;
        const TraceSource& src = t->sources_[static_cast<std::size_t>(s)];
        const bool rank_shared =
            src.rank >= 0 &&
            std::count_if(t->sources_.begin(), t->sources_.end(),
                          [&](const TraceSource& o) { return o.rank == src.rank; }) > 1;
        g.label = group_label(src, s, nsrc, rank_shared, lane);
        t->groups_.push_back(std::move(g));
      }
      t->groups_[static_cast<std::size_t>(it->second)].lanes.push_back(
          static_cast<std::int32_t>(l));
    }
  }
  if (total > std::numeric_limits<std::int32_t>::max())
    total = std::numeric_limits<std::int32_t>::max();

  // Nesting depth per event: events are sorted by start with parents first, so a stack of the
  // open events' ends gives each event the number of events still open when it starts.
  auto depth = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(total), 0);
  std::vector<double> open_ends;
  for (std::size_t k = 0; k < t->flat_lane_.size(); ++k) {
    const auto s = static_cast<std::size_t>(t->flat_source_[k]);
    const auto l = static_cast<std::size_t>(t->flat_lane_[k]);
    const auto& events = t->sources_[s].trace->lanes[l].events;
    open_ends.clear();
    std::uint8_t deepest = 0;
    const auto base = t->lane_offset_[k];
    for (std::size_t i = 0; i < events.size() && base + static_cast<std::int64_t>(i) < total; ++i) {
      const TraceEvent& e = events[i];
      while (!open_ends.empty() && open_ends.back() <= e.start_us) open_ends.pop_back();
      const auto d = static_cast<std::uint8_t>(
          std::min<std::size_t>(open_ends.size(), static_cast<std::size_t>(kMaxDepth - 1)));
      (*depth)[static_cast<std::size_t>(base) + i] = d;
      deepest = std::max(deepest, d);
      open_ends.push_back(e.start_us + e.dur_us);
    }
    t->max_depth_[s][l] = deepest;
  }
  t->depth_ = std::move(depth);
  t->first_start_us_ = std::isfinite(first) ? first : 0.0;
  t->origin_us_ = origin_us.value_or(t->first_start_us_);
  t->build_counters();
  return t;
}

std::shared_ptr<TraceTimeline> TraceTimeline::with_origin(double origin_us) const {
  auto t = std::make_shared<TraceTimeline>(*this);
  t->origin_us_ = origin_us;
  return t;
}

int TraceTimeline::lane_depth(int source, int lane) const {
  return max_depth_[static_cast<std::size_t>(source)][static_cast<std::size_t>(lane)];
}

std::string TraceTimeline::lane_title(int source, int lane) const {
  const int g = group_of(source, lane);
  const TraceLane& tl =
      sources_[static_cast<std::size_t>(source)].trace->lanes[static_cast<std::size_t>(lane)];
  return (g >= 0 ? groups_[static_cast<std::size_t>(g)].label + " / " : std::string()) +
         lane_name(tl);
}

GanttModel TraceTimeline::gantt(const std::set<int>& collapsed) const {
  TraceRowOptions options;
  options.collapsed = collapsed;
  return snapshot(options);
}

GanttModel TraceTimeline::snapshot(const TraceRowOptions& options) const {
  const std::vector<TraceRowInfo> info = rows_for(options);
  std::vector<GanttLane> lanes(info.size());
  // Index of the first row of each (source lane): its depth-d row is that plus d.
  std::map<std::int32_t, std::size_t> first_row;  // key: flat index
  for (std::size_t r = 0; r < info.size(); ++r) {
    const TraceRowInfo& ri = info[r];
    GanttLane& lane = lanes[r];
    lane.replica = ri.group;
    lane.stage = static_cast<int>(r);
    const TraceGroupInfo& g = groups_[static_cast<std::size_t>(ri.group)];
    if (ri.counter >= 0) {
      lane.label = "   ∿ " + counters_[static_cast<std::size_t>(ri.counter)].label;
      continue;
    }
    if (ri.lane < 0) {
      lane.label = "▸ " + g.label + " (" + std::to_string(g.lanes.size()) +
                   (g.lanes.size() == 1 ? " lane)" : " lanes)");
      continue;
    }
    const TraceLane& tl = sources_[static_cast<std::size_t>(ri.source)]
                              .trace->lanes[static_cast<std::size_t>(ri.lane)];
    if (ri.depth == 0) {
      // A pinned lane names its group, and is no group's head (a click on it folds nothing).
      const bool group_head =
          !ri.pinned_lane && (r == 0 || info[r - 1].group != ri.group || info[r - 1].pinned_lane);
      lane.label = ri.pinned_lane ? "● " + g.label + " / " + lane_name(tl)
                                  : (group_head ? "▾ " + g.label + " / " : "   ") + lane_name(tl);
      first_row[flat_of_[static_cast<std::size_t>(ri.source)][static_cast<std::size_t>(ri.lane)]] =
          r;
    }
  }
  auto add = [&](GanttLane& lane, std::int32_t k, std::size_t i, const TraceEvent& e) {
    const auto s = static_cast<std::size_t>(flat_source_[static_cast<std::size_t>(k)]);
    const double start = (e.start_us - origin_us_) * kSecondsPerUs;
    double name_colour = e.name >= 0 && static_cast<std::size_t>(e.name) < colour_[s].size()
                             ? colour_[s][static_cast<std::size_t>(e.name)]
                             : 0;
    // slimpack's own export: forward packs blue, backward orange, as in the plan's Gantt.
    if (e.cat >= 0 && e.cat == pass_cat_[s].first) name_colour = kForwardColour;
    if (e.cat >= 0 && e.cat == pass_cat_[s].second) name_colour = kBackwardColour;
    lane.bars.push_back({start, start + std::max(0.0, e.dur_us) * kSecondsPerUs,
                         static_cast<std::int32_t>(lane_offset_[static_cast<std::size_t>(k)] +
                                                   static_cast<std::int64_t>(i)),
                         BarKind::Trace, static_cast<std::int8_t>(name_colour)});
  };
  for (std::size_t r = 0; r < info.size(); ++r) {
    const TraceRowInfo& ri = info[r];
    if (ri.lane >= 0 || ri.depth != 0 || ri.counter >= 0) continue;
    // A collapsed group: the top-level events of every lane in one row.
    const TraceGroupInfo& g = groups_[static_cast<std::size_t>(ri.group)];
    for (const std::int32_t l : g.lanes) {
      const std::int32_t k =
          flat_of_[static_cast<std::size_t>(g.source)][static_cast<std::size_t>(l)];
      const auto& events = sources_[static_cast<std::size_t>(g.source)]
                               .trace->lanes[static_cast<std::size_t>(l)]
                               .events;
      const auto base = lane_offset_[static_cast<std::size_t>(k)];
      for (std::size_t i = 0;
           i < events.size() && base + static_cast<std::int64_t>(i) < lane_offset_.back(); ++i)
        if ((*depth_)[static_cast<std::size_t>(base) + i] == 0) add(lanes[r], k, i, events[i]);
    }
  }
  for (const auto& [k, row] : first_row) {
    const auto s = static_cast<std::size_t>(flat_source_[static_cast<std::size_t>(k)]);
    const auto l = static_cast<std::size_t>(flat_lane_[static_cast<std::size_t>(k)]);
    const auto& events = sources_[s].trace->lanes[l].events;
    const auto base = lane_offset_[static_cast<std::size_t>(k)];
    for (std::size_t i = 0;
         i < events.size() && base + static_cast<std::int64_t>(i) < lane_offset_.back(); ++i)
      add(lanes[row + (*depth_)[static_cast<std::size_t>(base) + i]], k, i, events[i]);
  }
  return GanttModel::from_trace_rows(std::move(lanes), static_cast<int>(groups_.size()),
                                     shared_from_this());
}

TraceEventRef TraceTimeline::locate(std::int32_t id) const {
  if (id < 0 || id >= lane_offset_.back()) return {};
  const auto it = std::upper_bound(lane_offset_.begin(), lane_offset_.end(), std::int64_t{id});
  const auto k = static_cast<std::size_t>(it - lane_offset_.begin()) - 1;
  return {flat_source_[k], flat_lane_[k], static_cast<std::int32_t>(id - lane_offset_[k])};
}

std::int32_t TraceTimeline::id_of(TraceEventRef ref) const {
  if (!ref.valid() || ref.instant || static_cast<std::size_t>(ref.source) >= flat_of_.size())
    return -1;
  const auto& lanes = flat_of_[static_cast<std::size_t>(ref.source)];
  if (ref.lane < 0 || static_cast<std::size_t>(ref.lane) >= lanes.size()) return -1;
  const auto k = static_cast<std::size_t>(lanes[static_cast<std::size_t>(ref.lane)]);
  const std::int64_t id = lane_offset_[k] + ref.index;
  if (ref.index < 0 || id >= lane_offset_[k + 1]) return -1;
  return static_cast<std::int32_t>(id);
}

int TraceTimeline::group_of(int source, int lane) const {
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].source == source &&
        std::find(groups_[g].lanes.begin(), groups_[g].lanes.end(), lane) != groups_[g].lanes.end())
      return static_cast<int>(g);
  return -1;
}

const TraceEvent* TraceTimeline::event(TraceEventRef ref) const {
  if (!ref.valid()) return nullptr;
  const TraceLane& lane = sources_[static_cast<std::size_t>(ref.source)]
                              .trace->lanes[static_cast<std::size_t>(ref.lane)];
  return ref.instant ? &lane.instants[static_cast<std::size_t>(ref.index)]
                     : &lane.events[static_cast<std::size_t>(ref.index)];
}

const TraceEvent* TraceTimeline::event(const GanttModel& model, BarRef bar) const {
  if (!bar.valid() || bar.lane >= model.lane_count() ||
      bar.bar >= static_cast<int>(model.lane(bar.lane).bars.size()))
    return nullptr;
  const GanttBar& b = model.bar(bar);
  return b.kind == BarKind::Trace ? event(locate(b.pack)) : nullptr;
}

const std::vector<std::string>& TraceTimeline::names_of(TraceEventRef ref) const {
  return sources_[static_cast<std::size_t>(std::max(0, ref.source))].trace->names;
}

const std::string& TraceTimeline::name(TraceEventRef ref) const {
  const TraceEvent* e = event(ref);
  return e ? text_at(names_of(ref), e->name) : kEmpty;
}

const std::string& TraceTimeline::category(TraceEventRef ref) const {
  const TraceEvent* e = event(ref);
  return e ? text_at(names_of(ref), e->cat) : kEmpty;
}

const std::string& TraceTimeline::args(TraceEventRef ref) const {
  const TraceEvent* e = event(ref);
  return e ? text_at(sources_[static_cast<std::size_t>(std::max(0, ref.source))].trace->args,
                     e->args)
           : kEmpty;
}

std::optional<double> TraceTimeline::first_start_of(const std::string& wanted) const {
  std::optional<double> best;
  for (const TraceSource& src : sources_) {
    const auto& names = src.trace->names;
    const auto it = std::find(names.begin(), names.end(), wanted);
    if (it == names.end()) continue;
    const auto id = static_cast<std::int32_t>(it - names.begin());
    for (const TraceLane& lane : src.trace->lanes)
      for (const TraceEvent& e : lane.events)
        if (e.name == id) {
          if (!best || e.start_us < *best) best = e.start_us;
          break;  // sorted by start: the first one in this lane is its earliest
        }
  }
  return best;
}

std::vector<std::string> TraceTimeline::names_with_prefix(const std::string& prefix) const {
  std::set<std::string> found;
  for (const TraceSource& src : sources_)
    for (const auto& n : src.trace->names)
      if (n.size() > prefix.size() && n.compare(0, prefix.size(), prefix) == 0) found.insert(n);
  std::vector<std::string> out(found.begin(), found.end());
  // "#2" before "#10": by length, then text.
  std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return out;
}

std::vector<BarRef> TraceTimeline::select_mask(
    const GanttModel& model, const std::vector<std::vector<char>>& mask,
    const std::vector<std::vector<char>>& cat_mask) const {
  std::vector<BarRef> out;
  for (int l = 0; l < model.lane_count(); ++l) {
    const auto& bars = model.lane(l).bars;
    for (std::size_t b = 0; b < bars.size(); ++b) {
      if (bars[b].kind != BarKind::Trace) continue;
      const TraceEventRef ref = locate(bars[b].pack);
      const TraceEvent* e = event(ref);
      if (!e) continue;
      const auto& m = mask[static_cast<std::size_t>(ref.source)];
      if (e->name < 0 || static_cast<std::size_t>(e->name) >= m.size() ||
          !m[static_cast<std::size_t>(e->name)])
        continue;
      if (!cat_mask.empty()) {
        const auto& c = cat_mask[static_cast<std::size_t>(ref.source)];
        if (e->cat < 0 || static_cast<std::size_t>(e->cat) >= c.size() ||
            !c[static_cast<std::size_t>(e->cat)])
          continue;
      }
      out.push_back({l, static_cast<std::int32_t>(b)});
    }
  }
  return out;
}

std::vector<BarRef> TraceTimeline::find_name(const GanttModel& model,
                                             const std::string& text) const {
  if (text.empty()) return {};
  const std::string needle = lower(text);
  return select(model, [&](int s, int n) {
    return lower(sources_[static_cast<std::size_t>(s)].trace->names[static_cast<std::size_t>(n)])
               .find(needle) != std::string::npos;
  });
}

}  // namespace slimpack
