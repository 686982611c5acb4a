#pragma once
// Difference of two imported traces by event name: how often each name ran and for how long in A
// and in B, the delta and a status. It answers "what got slower between these two runs" (two
// profiler traces of one job, before and after a change) without lining the timelines up event by
// event.
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_import.h"

namespace slimpack {

enum class NameDiffStatus : std::uint8_t { Added, Removed, Longer, Shorter, Unchanged };
const char* name_diff_status_name(NameDiffStatus s);  // "added", "removed", ...

struct TraceCompareOptions {
  std::string category;      // only events of this category ("kernel", "cpu_op", ...); empty: all
  bool fold_digits = false;  // every run of digits in a name reads "N" (ProfilerStep#12 == #13)
  // A name whose totals differ by at most this fraction of the larger total is "unchanged".
  double tolerance = 0.05;
};

// What was counted of one trace (after the category filter).
struct TraceCompareSide {
  std::string source;
  std::int64_t events = 0;  // complete events counted
  std::int64_t names = 0;   // distinct (possibly folded) names
  std::int64_t lanes = 0;
  double span_us = 0.0;   // of the whole trace
  double total_us = 0.0;  // sum of the counted events' durations
};

struct NameDiff {
  std::string name;
  std::int64_t count_a = 0;
  std::int64_t count_b = 0;
  double total_us_a = 0.0;
  double total_us_b = 0.0;
  double delta_us = 0.0;  // total_us_b - total_us_a
  NameDiffStatus status = NameDiffStatus::Unchanged;
};

struct TraceComparison {
  TraceCompareSide a;
  TraceCompareSide b;
  std::vector<NameDiff> names;  // largest |delta| first, then by name
};

// Both traces must have been imported with their events kept (TraceImportOptions::keep_events).
// Only complete events count ("X" and matched "B"/"E"): instants, counters and metadata have no
// duration to compare.
TraceComparison compare_traces(const ImportedTrace& a, const ImportedTrace& b,
                               const TraceCompareOptions& options = {});

// "ProfilerStep#12" -> "ProfilerStep#N": each maximal run of ASCII digits becomes one "N".
std::string fold_digits(const std::string& name);

}  // namespace slimpack
