#include "trace/trace_builder.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace slimpack {
namespace {

// Numeric text (pids and tids are usually numbers) orders by value, before any other text.
bool numeric_value(const std::string& s, double& v) {
  if (s.empty()) return false;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

bool id_less(const std::string& a, const std::string& b) {
  double va = 0.0, vb = 0.0;
  const bool na = numeric_value(a, va), nb = numeric_value(b, vb);
  if (na != nb) return na;
  if (na && va != vb) return va < vb;
  return a < b;
}

// Times beyond a 64-bit count of nanoseconds (about 292 years), what Chrome and Perfetto hold:
// never a profiler's clock, and past it a double no longer tells microseconds apart; a span
// computed from one would print as hundreds of digits.
constexpr double kMaxTimeUs = 9.2e15;

// Empty, or why `value` (the field `what`) cannot be a time.
std::string time_error(const char* what, double value) {
  if (value >= -kMaxTimeUs && value <= kMaxTimeUs) return {};
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g", value);
  return std::string(what) + " " + buf +
         " is out of range: times must lie within +-9.2e15 us (a 64-bit count of nanoseconds)";
}

}  // namespace

std::string unmatched_events_text(std::int64_t unmatched) {
  return std::to_string(unmatched) +
         (unmatched == 1 ? " unmatched B/E event" : " unmatched B/E events") +
         " (an \"E\" with no open \"B\" on its thread, or a \"B\" never closed)";
}

TraceBuilder::TraceBuilder(bool keep_events, bool keep_args, std::int64_t args_budget_bytes,
                           std::int64_t memory_budget_bytes)
    : keep_events_(keep_events),
      keep_args_(keep_events && keep_args),
      args_budget_bytes_(args_budget_bytes),
      memory_(memory_budget_bytes) {
  intern("");  // index 0: the name or category of events that have none
}

std::int32_t TraceBuilder::intern(std::string_view s) {
  if (auto it = name_index_.find(s); it != name_index_.end()) return it->second;
  const auto id = static_cast<std::int32_t>(out_.names.size());
  out_.names.emplace_back(s);
  name_index_.emplace(std::string(s), id);
  return id;
}

TraceBuilder::LaneState& TraceBuilder::lane(std::string_view pid, std::string_view tid) {
  LaneState& l = lanes_[static_cast<std::size_t>(lane_id(pid, tid))];
  l.shown = true;
  return l;
}

std::int32_t TraceBuilder::lane_id(std::string_view pid, std::string_view tid) {
  if (last_lane_ >= 0) {
    LaneState& l = lanes_[static_cast<std::size_t>(last_lane_)];
    if (l.lane.pid == pid && l.lane.tid == tid) return last_lane_;
  }
  key_scratch_.assign(pid);
  key_scratch_ += '\0';
  key_scratch_.append(tid);
  auto it = lane_index_.find(key_scratch_);
  if (it == lane_index_.end()) {
    LaneState l;
    l.lane.pid = std::string(pid);
    l.lane.tid = std::string(tid);
    lanes_.push_back(std::move(l));
    it = lane_index_.emplace(key_scratch_, static_cast<std::int32_t>(lanes_.size() - 1)).first;
  }
  last_lane_ = it->second;
  return it->second;
}

std::int32_t TraceBuilder::add_args(const RawTraceEvent& ev) {
  if (!keep_args_ || !ev.has_args) return -1;
  // A string header, plus the heap block when the text is past the small-string buffer.
  const auto cost = static_cast<std::int64_t>(sizeof(std::string) +
                                              (ev.args.size() > 15 ? ev.args.size() + 1 : 0));
  if (args_bytes_ + cost > args_budget_bytes_) {
    ++out_.args_dropped;
    return -1;
  }
  args_bytes_ += cost;
  out_.args.emplace_back(ev.args);
  return static_cast<std::int32_t>(out_.args.size() - 1);
}

void TraceBuilder::add_correlation(const RawTraceEvent& ev) {
  // Events arrive in array order, so the list stays sorted by index.
  if (keep_events_ && ev.has_correlation && ev.index >= 0)
    out_.correlations.push_back({ev.correlation, ev.index});
}

void TraceBuilder::complete(LaneState& l, double start, double dur, std::int32_t name,
                            std::int32_t cat, std::int32_t args, std::int32_t index) {
  ++l.lane.count;
  if (keep_events_) l.lane.events.push_back({start, dur, name, cat, args, index});
  const double end = start + dur;
  if (!any_timed_) {
    first_start_ = start;
    last_end_ = end;
    any_timed_ = true;
  } else {
    first_start_ = std::min(first_start_, start);
    last_end_ = std::max(last_end_, end);
  }
}

void TraceBuilder::add_instant(const RawTraceEvent& ev) {
  // Without a time, or with one no view can place (time_error), an instant has nowhere to be
  // drawn: it stays counted in by_phase only, as before instants were kept.
  if (!ev.has_ts || !time_error("ts", ev.ts).empty()) return;
  lane(ev.pid, ev.tid)
      .lane.instants.push_back(
          {ev.ts, 0.0, intern(ev.name), intern(ev.cat), add_args(ev), ev.index});
}

std::string TraceBuilder::add(const RawTraceEvent& ev) {
  ++out_.events;
  const std::string_view ph = ev.ph.empty() ? std::string_view("?") : ev.ph;
  auto pc = std::find_if(phase_counts_.begin(), phase_counts_.end(),
                         [&](const auto& p) { return p.first == ph; });
  if (pc == phase_counts_.end()) pc = phase_counts_.insert(pc, {std::string(ph), 0});
  ++pc->second;

  if (ph.size() != 1) return {};
  const char p = ph[0];
  if (p == 'X' || p == 'B' || p == 'E' || p == 's' || p == 't' || p == 'f') {
    if (ev.has_ts)
      if (std::string err = time_error("ts", ev.ts); !err.empty()) return err;
    if (p == 'X' && ev.has_dur)
      if (std::string err = time_error("dur", ev.dur); !err.empty()) return err;
  }
  switch (p) {
    case 'X': {
      if (!ev.has_ts) return "\"X\" event has no ts";
      const double dur = ev.has_dur ? ev.dur : 0.0;  // tolerated: some writers omit a zero dur
      if (dur < 0.0) return "dur is negative";
      // Names are interned only for events kept (`trace info` counts, and hashing every name
      // was a tenth of its time).
      complete(lane(ev.pid, ev.tid), ev.ts, dur, keep_events_ ? intern(ev.name) : 0,
               keep_events_ ? intern(ev.cat) : 0, add_args(ev), ev.index);
      add_correlation(ev);
      return {};
    }
    case 'B': {
      if (!ev.has_ts) return "\"B\" event has no ts";
      lane(ev.pid, ev.tid)
          .open.push_back({ev.ts, keep_events_ ? intern(ev.name) : 0,
                           keep_events_ ? intern(ev.cat) : 0, add_args(ev), ev.index});
      add_correlation(ev);  // a "B" never closed leaves an entry no event has: harmless
      return {};
    }
    case 'E': {
      if (!ev.has_ts) return "\"E\" event has no ts";
      LaneState& l = lane(ev.pid, ev.tid);
      if (l.open.empty()) {
        ++out_.unmatched;
        return {};
      }
      const Open b = l.open.back();
      l.open.pop_back();
      if (ev.ts < b.start_us) return "\"E\" event ends before its \"B\" begins";
      // Chrome merges the args of "B" and "E"; when only "E" has them, its args are the pair's.
      complete(l, b.start_us, ev.ts - b.start_us, b.name, b.cat,
               b.args >= 0 ? b.args : add_args(ev), b.index);
      return {};
    }
    case 's':
    case 't':
    case 'f':
      // Flow points with an id and a time (Kineto's ac2g: CPU launch -> GPU kernel). They name a
      // lane without creating one: a pid/tid with nothing else is no lane of the trace.
      if (keep_events_ && ev.has_ts && !ev.id.empty())
        out_.flows.push_back(
            {ev.ts, lane_id(ev.pid, ev.tid), intern(ev.id), intern(ev.cat), ph[0]});
      return {};
    case 'M':
      if (ev.name == "process_name") {
        process_names_[std::string(ev.pid)] = std::string(ev.meta_name);
      } else if (ev.name == "process_labels") {
        process_labels_[std::string(ev.pid)] = std::string(ev.meta_name);
      } else if (ev.name == "thread_name") {
        lane(ev.pid, ev.tid).lane.thread_name = std::string(ev.meta_name);
      }
      return {};
    case 'i':
    case 'I':  // the older spelling of an instant event
      if (!keep_events_) return {};
      if (ev.name == "[memory]") memory_.add_memory(ev.has_ts, ev.ts, ev.memory);
      add_instant(ev);
      return {};
    case 'C':
      if (keep_events_ && ev.has_ts) memory_.add_counter(ev.pid, ev.name, ev.ts, ev.counters);
      return {};
    default:
      return {};  // async and other events: counted in by_phase only
  }
}

ImportedTrace TraceBuilder::finish(std::string source, std::int64_t bytes) {
  out_.source = std::move(source);
  out_.bytes = bytes;
  for (const auto& [ph, n] : phase_counts_) out_.by_phase[ph] = n;
  out_.span_us = any_timed_ ? last_end_ - first_start_ : 0.0;
  memory_.finish(out_);
  // As for the lanes below: up to half of the args vector is slack after doubling (16 bytes an
  // event at 10M events); moving the strings is cheap.
  if (out_.args.capacity() - out_.args.size() > out_.args.size() / 8) out_.args.shrink_to_fit();
  if (out_.correlations.capacity() - out_.correlations.size() > out_.correlations.size() / 8)
    out_.correlations.shrink_to_fit();
  out_.lanes.reserve(lanes_.size());
  std::vector<std::int32_t> kept(lanes_.size(), -1);  // builder lane -> position before sorting
  for (std::size_t li = 0; li < lanes_.size(); ++li) {
    LaneState& l = lanes_[li];
    if (!l.shown) continue;
    kept[li] = static_cast<std::int32_t>(out_.lanes.size());
    out_.unmatched += static_cast<std::int64_t>(l.open.size());
    TraceLane& lane = l.lane;
    if (auto it = process_names_.find(lane.pid); it != process_names_.end())
      lane.process_name = it->second;
    if (auto it = process_labels_.find(lane.pid); it != process_labels_.end())
      lane.process_labels = it->second;
    const std::string process = process_label(lane);
    lane.label = process.empty() || lane.thread_name.empty() ? process + lane.thread_name
                                                             : process + " / " + lane.thread_name;
    // Matched "E" events arrive in end order; nested "X" parents should precede their children.
    // Most lanes arrive sorted: checking first spares stable_sort's buffer of half the lane.
    const auto before = [](const TraceEvent& a, const TraceEvent& b) {
      return a.start_us != b.start_us ? a.start_us < b.start_us : a.dur_us > b.dur_us;
    };
    if (!std::is_sorted(lane.events.begin(), lane.events.end(), before))
      std::stable_sort(lane.events.begin(), lane.events.end(), before);
    const auto earlier = [](const TraceEvent& a, const TraceEvent& b) {
      return a.start_us < b.start_us;
    };
    if (!std::is_sorted(lane.instants.begin(), lane.instants.end(), earlier))
      std::stable_sort(lane.instants.begin(), lane.instants.end(), earlier);
    if (lane.instants.capacity() - lane.instants.size() > lane.instants.size() / 8)
      lane.instants.shrink_to_fit();
    // Doubling leaves up to half of a lane's vector unused; a trace lives as long as its view.
    if (lane.events.capacity() - lane.events.size() > lane.events.size() / 8)
      lane.events.shrink_to_fit();
    out_.lanes.push_back(std::move(lane));
  }
  std::vector<std::int32_t> order(out_.lanes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
  std::stable_sort(order.begin(), order.end(), [this](std::int32_t x, std::int32_t y) {
    const TraceLane& a = out_.lanes[static_cast<std::size_t>(x)];
    const TraceLane& b = out_.lanes[static_cast<std::size_t>(y)];
    if (a.pid != b.pid) return id_less(a.pid, b.pid);
    return id_less(a.tid, b.tid);
  });
  std::vector<TraceLane> sorted;
  sorted.reserve(order.size());
  std::vector<std::int32_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    position[static_cast<std::size_t>(order[i])] = static_cast<std::int32_t>(i);
    sorted.push_back(std::move(out_.lanes[static_cast<std::size_t>(order[i])]));
  }
  out_.lanes = std::move(sorted);
  for (TraceFlowPoint& f : out_.flows) {
    const std::int32_t k = f.lane >= 0 ? kept[static_cast<std::size_t>(f.lane)] : -1;
    f.lane = k >= 0 ? position[static_cast<std::size_t>(k)] : -1;
  }
  return std::move(out_);
}

}  // namespace slimpack
