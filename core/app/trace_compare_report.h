#pragma once
// `slimpack trace compare A B` as one application path: the traces read, the category checked
// against both files (an unknown or absent category is an error listing the categories present,
// never a silently empty table), the comparison (core/trace/trace_compare.h), and its text and
// JSON. The explorer's diff table runs the same comparison.
#include <nlohmann/json.hpp>

#include <string>

#include "common/cancel.h"
#include "common/status.h"
#include "trace/trace_compare.h"
#include "trace/trace_import.h"

namespace slimpack {

// The category check, then compare_traces.
Expected<TraceComparison> run_trace_compare(const ImportedTrace& a, const ImportedTrace& b,
                                            const TraceCompareOptions& options);

// Both files read (events kept, args not) and compared.
Expected<TraceComparison> compare_trace_files(const std::string& a, const std::string& b,
                                              const TraceCompareOptions& options,
                                              const CancelToken& cancel = CancelToken::none());

// {"a": {file, events, counted, names, lanes, span_us, total_us, self_us, steps}, "b": {...},
//  "category", "fold_digits", "short_names", "include_profiler_span", "steps", "time",
//  "tolerance", "note", "names": [{name, count_a, count_b, total_us_a, total_us_b, self_us_a,
//  self_us_b, delta_us, delta_self_us, status}]}. Counts are integers unless per-step means
// make them fractional.
nlohmann::json trace_comparison_json(const TraceComparison& c, const TraceCompareOptions& options);

// The two sides, the note, and the `limit` largest changes as a table.
std::string trace_comparison_text(const TraceComparison& c, const TraceCompareOptions& options,
                                  std::size_t limit);

}  // namespace slimpack
