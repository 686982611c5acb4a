#pragma once
// Difference of two imported traces by event name: how often each name ran and for how long in A
// and in B (total and self time), the delta and a status. It answers "what got slower between
// these two runs" (two profiler traces of one job, before and after a change) without lining the
// timelines up event by event: over the whole trace, or per profiler step (HTA's TraceDiff
// compares one iteration at a time; comparing whole traces misleads when the step counts differ).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "trace/trace_import.h"

namespace slimpack {

enum class NameDiffStatus : std::uint8_t { Added, Removed, Longer, Shorter, Unchanged };
const char* name_diff_status_name(NameDiffStatus s);  // "added", "removed", ...

// Which profiler steps (`ProfilerStep#N` spans, trace_gpu.h) are compared: every step of each
// trace, one step N, or the steps numbered first..last. Each side's figures are then means per
// step over the steps it has in the selection.
struct StepRange {
  std::optional<int> first;  // both empty: every step
  std::optional<int> last;
  bool operator==(const StepRange&) const = default;
};
// "all", "N" or "A-B" (A <= B); errors name the text.
Expected<StepRange> parse_step_range(const std::string& text);
std::string step_range_text(const StepRange& r);  // "all", "3", "2-5"

// Which time orders the rows and decides the status.
enum class CompareTime : std::uint8_t { Total, Self };

struct TraceCompareOptions {
  std::string category;      // only events of this category ("kernel", "cpu_op", ...); empty: all
  bool fold_digits = false;  // every run of digits in a name reads "N" (ProfilerStep#12 == #13)
  bool short_names = false;  // template and argument lists dropped, as HTA's shorten_name
  // The profiler's own span, "PyTorch Profiler (N)" (the whole recording), is left out unless
  // this is set: it is no work of the program and dwarfs every real change.
  bool include_profiler_span = false;
  std::optional<StepRange> steps;  // empty: the whole trace
  CompareTime by = CompareTime::Total;
  // A name whose times differ by at most this fraction of the larger one is "unchanged".
  double tolerance = 0.05;
};

// What was counted of one trace.
struct TraceCompareSide {
  std::string source;
  // Every element of the trace's event array (as `slimpack trace info` counts "events"):
  // metadata, instants, counters and flows included.
  std::int64_t events = 0;
  // The complete events ("X", matched "B"/"E") compared: after the category, step and profiler
  // span filters.
  std::int64_t counted = 0;
  std::int64_t names = 0;  // distinct (possibly folded or shortened) names
  std::int64_t lanes = 0;
  // "B"/"E" events left unmatched (ImportedTrace::unmatched): no duration, so not compared.
  std::int64_t unmatched = 0;
  double span_us = 0.0;  // of the whole trace
  // Sum of the counted events' durations and self times (per step when steps are compared).
  double total_us = 0.0;
  double self_us = 0.0;
  std::vector<int> steps;  // the steps compared (their numbers); empty: the whole trace
  // Numbers that occur more than once among the steps compared: each occurrence is a step of its
  // own (in `steps` once per occurrence), never one window over both.
  std::vector<int> repeated_steps;
};

struct NameDiff {
  std::string name;
  // Events counted; with steps, the mean per step (so it may be fractional).
  double count_a = 0;
  double count_b = 0;
  double total_us_a = 0.0;  // sum of durations (per step with steps)
  double total_us_b = 0.0;
  // Self time: each event's duration minus the time of the events nested in it on the same
  // lane (thread or stream), so `fn` inside `fn` is not counted twice.
  double self_us_a = 0.0;
  double self_us_b = 0.0;
  double delta_us = 0.0;                              // total_us_b - total_us_a
  double delta_self_us = 0.0;                         // self_us_b - self_us_a
  NameDiffStatus status = NameDiffStatus::Unchanged;  // on the time options.by picks
};

struct TraceComparison {
  TraceCompareSide a;
  TraceCompareSide b;
  std::vector<NameDiff> names;  // largest |delta| (of options.by's time) first, then by name
  // Something the reader must know, e.g. "A has 3 steps in the range, B has 2: means per step";
  // empty when nothing.
  std::string note;
};

// Both traces must have been imported with their events kept (TraceImportOptions::keep_events).
// Only complete events count ("X" and matched "B"/"E"): instants, counters and metadata have no
// duration to compare. Errors (BadInput): steps asked for and a trace has none in the selection
// (naming the file and the steps it has).
Expected<TraceComparison> compare_traces(const ImportedTrace& a, const ImportedTrace& b,
                                         const TraceCompareOptions& options = {});

// The categories of a trace's complete events, sorted ("" for events without one).
std::vector<std::string> event_categories(const ImportedTrace& trace);
// A category filter both traces can answer: an error (BadInput) naming the category and listing
// the categories present in each file when A or B has no complete event of it. Empty: fine.
Status check_compare_category(const ImportedTrace& a, const ImportedTrace& b,
                              const std::string& category);

// "ProfilerStep#12" -> "ProfilerStep#N": each maximal run of ASCII digits becomes one "N".
std::string fold_digits(const std::string& name);
// HTA's shorten_name (hta/utils/utils.py): memory operations (Memcpy..., Memset...) and names
// without '<' or '(' stay; otherwise "->" is dropped, every <...> and (...) with what it holds is
// removed and the last space-separated word is the name:
// "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, ...>(int,
// ...)"
// -> "at::native::vectorized_elementwise_kernel". Unlike HTA, trailing spaces are dropped before
// the last word is taken (HTA's split gives "" for "void f<int> (int)"), and a name that would
// still come out empty (an unbalanced '>' eats everything before it) stays whole.
std::string short_name(const std::string& name);

}  // namespace slimpack
