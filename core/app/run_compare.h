#pragma once
// "Diff two runs" as one call: `slimpack trace compare A B` and the explorer's comparison of run A
// with run B (Traces tab, Compare) both call compare_runs, so a run of several ranks per side is
// merged the same way (every rank's events, pids prefixed "rank r:") and compared by event name
// with the same numbers in both front ends. No Qt, no threads.
#include <memory>
#include <string>
#include <vector>

#include "app/trace_run.h"
#include "common/cancel.h"
#include "common/status.h"
#include "trace/trace_compare.h"
#include "trace/trace_import.h"

namespace slimpack {

// One rank's trace as a run holds it (core/app's TraceRun ranks, the explorer's timeline sources).
struct RankSource {
  std::shared_ptr<const ImportedTrace> trace;
  int rank = -1;      // -1: its position
  std::string label;  // the file name
};

// The ranks as one trace: lanes of every rank (pids prefixed "rank r:"), names interned again,
// flow points with their lanes offset and ids per rank; the source itself for one rank.
std::shared_ptr<const ImportedTrace> merge_rank_traces(const std::vector<RankSource>& ranks);
std::vector<RankSource> rank_sources(const TraceRun& run);

struct RunComparison {
  TraceCompareOptions options;  // as asked (whole_trace says when the steps were dropped)
  TraceComparison comparison;
  // Steps were asked for with RunCompareOptions::steps_or_whole and a run has none: the runs
  // were compared whole (the explorer's per-step default on a trace without profiler steps).
  bool whole_trace = false;
  std::vector<std::string> categories;     // of the complete events of both runs, sorted
  std::shared_ptr<const ImportedTrace> a;  // the merged runs
  std::shared_ptr<const ImportedTrace> b;
};

// Compares run A with run B by event name (run_trace_compare: the category is checked against
// both). With `steps_or_whole`, steps asked for that a run lacks compare the runs whole instead of
// failing.
Expected<RunComparison> compare_runs(const std::vector<RankSource>& a,
                                     const std::vector<RankSource>& b,
                                     const TraceCompareOptions& options,
                                     bool steps_or_whole = false);

// The CLI's form: each side's files (one per rank, or a folder of them, as load_trace_run reads a
// run) loaded and compared; steps asked for that a run lacks are an error.
Expected<RunComparison> compare_run_files(const std::vector<std::string>& a,
                                          const std::vector<std::string>& b,
                                          const TraceCompareOptions& options,
                                          const CancelToken& cancel = CancelToken::none());

}  // namespace slimpack
