#pragma once
// `slimpack trace summary` and the explorer's summary panel: one summary per rank of a run
// (core/trace/trace_summary.h: GPU time per profiler step split into computation,
// communication, memory copies and idle, overlap, idle causes, launch statistics) and the
// straggler view that lines the ranks up per step. One computation and one JSON for every
// front end.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/trace_run.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "common/task_pool.h"
#include "trace/trace_summary.h"

namespace slimpack {

struct RankSummary {
  int rank = 0;
  std::string file;   // as given
  std::string label;  // the file name
  // Empty when the rank's trace has no GPU operation: then `summary` holds no figures and this
  // says so ("no GPU operation ...").
  std::string no_gpu;
  TraceSummary summary;
};

// One rank in one step of the straggler view.
struct StragglerEntry {
  int rank = 0;
  double span_us = 0.0;           // the step's ProfilerStep span on that rank
  double work_us = 0.0;           // computation + memcpy: the GPU's own work in the step
  double communication_us = 0.0;  // exposed communication (waiting in collectives, mostly)
  double idle_us = 0.0;
};

// The ranks of one step. The slowest rank is the one with the most GPU work (computation and
// memory copies): in a run synchronised by collectives every rank's step lasts as long as the
// slowest one's, which the others spend waiting in their communication kernels.
struct StragglerStep {
  int step = 0;
  int occurrence = 0;                 // of a repeated step number (GpuTimeBreakdown::occurrence)
  std::vector<StragglerEntry> ranks;  // by rank; ranks without this step are left out
  int slowest_rank = 0;
  double spread_us = 0.0;  // slowest work - fastest work
};

struct RunSummary {
  std::vector<RankSummary> ranks;         // by rank
  std::vector<StragglerStep> stragglers;  // steps at least two ranks have, by step
};

// Every rank of the run summarised, the ranks on the pool's workers (one rank per worker at a
// time; the figures and their order are the serial ones). A run where no rank has a GPU operation
// is an error naming the files (nothing to split); a rank without one among others keeps its
// `no_gpu` reason. Cancellable between and within ranks; progress is the share of ranks done.
Expected<RunSummary> summarize_trace_run(const TraceRun& run,
                                         const TraceSummaryOptions& options = {},
                                         const CancelToken& cancel = CancelToken::none(),
                                         ProgressSink& progress = ProgressSink::none(),
                                         TaskPool& pool = TaskPool::serial());

// The files as `slimpack trace summary FILE...` takes them (a folder: its traces; ranks as for
// every measured run, core/app/trace_run.h), streamed: each worker of the pool imports one file
// (events without args), summarises it and drops its events before taking the next, so the peak
// is one imported rank per worker, not the whole run. The same result as summarize_trace_run over
// load_trace_run of the files (the default request: no alignment), errors included: a file that
// fails gives its own error (naming it), the first such file in the order given, as a serial walk
// would; files after it are not started. With `unreadable`, a file that cannot be read is left
// out of the run instead (its error, naming it, appended there; ranks are assigned among the files
// read), so the others are still summarised; a run where no file can be read is still the first
// file's error.
Expected<RunSummary> summarize_trace_files(const std::vector<std::string>& files,
                                           const TraceSummaryOptions& options = {},
                                           const CancelToken& cancel = CancelToken::none(),
                                           ProgressSink& progress = ProgressSink::none(),
                                           TaskPool& pool = TaskPool::serial(),
                                           std::vector<Error>* unreadable = nullptr);

// {"ranks": [{"rank", "file", "gpu_ops", "steps": [{"step", "span_us", "gpu_busy_us",
//  "computation_us", "communication_us", "memcpy_us", "idle_us", "overlap_us", ...}],
//  "kernels": {...}}], "total": {same keys, "step": null}, "gpu_first_us", "gpu_last_us",
//  "total_window": "trace"|"gpu", "memory": {"events", "skipped", "dropped", "devices":
//  [{"device", "total": {"events", "allocated_start", "allocated_end", "peak_allocated",
//  "peak_allocated_us", "peak_reserved", "peak_reserved_us"}, "steps": [{"step", same keys}]}]},
//  "counters": [{"name", "series", "count", "min", "max", "last", "last_us"}]}], "stragglers":
//  [{"step", "slowest_rank", "spread_us", "ranks": [{"rank", "span_us", "work_us",
//  "communication_us", "idle_us"}]}]}
nlohmann::json run_summary_json(const RunSummary& summary);
nlohmann::json gpu_breakdown_json(const GpuTimeBreakdown& b);

// The tables `slimpack trace summary` prints: per rank its steps and total, launch statistics,
// the whole trace's kernel table (its kinds and `kernels` largest names; 0: none), memory over
// time and counters (when the trace has them), then the straggler view.
std::string run_summary_text(const RunSummary& summary, std::size_t kernels = 10);

}  // namespace slimpack
