#pragma once
// Accumulates parsed Chrome trace events into an ImportedTrace: phase counts, lanes by (pid, tid),
// "B"/"E" matching per lane stack, metadata labels and interned names. Parser-independent, so the
// JSON front end only has to fill a RawTraceEvent per array element.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/trace_import.h"
#include "trace/trace_memory_events.h"

namespace slimpack {

// One trace event as read; views stay valid until the next add().
struct RawTraceEvent {
  std::string_view ph, name, cat;
  std::string_view pid, tid;   // numbers already printed as text
  std::string_view id;         // flow id ("s"/"t"/"f"), numbers printed as text
  std::string_view meta_name;  // args.name (args.labels), read for "M" events only
  std::string_view args;       // compact JSON text of "args" (X/B/E/i/I events, when kept)
  bool has_args = false;
  std::int64_t correlation = 0;  // args.correlation, when has_correlation
  bool has_correlation = false;
  double ts = 0.0, dur = 0.0;
  bool has_ts = false, has_dur = false;
  std::int32_t index = -1;  // position in the event array
  // Read when events are kept: the args of an "i"/"I" event (a "[memory]" one when `name` says
  // so) and the numeric series of a "C" event.
  RawMemoryArgs memory;
  std::span<const CounterValue> counters;
};

class TraceBuilder {
 public:
  TraceBuilder(bool keep_events, bool keep_args, std::int64_t args_budget_bytes,
               std::int64_t memory_budget_bytes);

  void set_rank(int rank) { out_.rank = rank; }

  // Error message without location (the caller prefixes file and event index), or empty.
  std::string add(const RawTraceEvent& ev);
  ImportedTrace finish(std::string source, std::int64_t bytes);

 private:
  struct Open {
    double start_us;
    std::int32_t name, cat, args, index;
  };
  struct LaneState {
    TraceLane lane;
    std::vector<Open> open;  // "B" events awaiting their "E"
    bool shown = false;      // has an X/B/E event or a thread name (else only flow points)
  };
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using StringIndex = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;

  std::int32_t intern(std::string_view s);
  LaneState& lane(std::string_view pid, std::string_view tid);
  void complete(LaneState& l, double start, double dur, std::int32_t name, std::int32_t cat,
                std::int32_t args, std::int32_t index);
  std::int32_t lane_id(std::string_view pid, std::string_view tid);
  std::int32_t add_args(const RawTraceEvent& ev);
  void add_correlation(const RawTraceEvent& ev);
  void add_instant(const RawTraceEvent& ev);  // an "i"/"I" event kept on its lane

  bool keep_events_;
  bool keep_args_;
  std::int64_t args_budget_bytes_;
  std::int64_t args_bytes_ = 0;  // spent of the budget
  ImportedTrace out_;
  MemoryEventCollector memory_;
  StringIndex name_index_;
  StringIndex lane_index_;  // key: pid '\0' tid
  std::vector<LaneState> lanes_;
  std::unordered_map<std::string, std::string> process_names_;
  std::unordered_map<std::string, std::string> process_labels_;
  std::vector<std::pair<std::string, std::int64_t>> phase_counts_;  // a handful: linear search
  std::string key_scratch_;
  std::int32_t last_lane_ = -1;  // consecutive events mostly share a lane
  double first_start_ = 0.0, last_end_ = 0.0;
  bool any_timed_ = false;
};

}  // namespace slimpack
