#pragma once
// Import of Chrome Trace Event files (our own exports, Kineto / PyTorch profiler traces, other
// Chrome traces; plain or gzipped; large files streamed) for comparison with simulated schedules.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "common/task_pool.h"

namespace slimpack {

// One complete event ("X", or a matched "B"/"E" pair) on one lane.
struct TraceEvent {
  double start_us = 0.0;
  double dur_us = 0.0;
  std::int32_t name = 0;   // index into ImportedTrace::names
  std::int32_t cat = 0;    // index into ImportedTrace::names
  std::int32_t args = -1;  // index into ImportedTrace::args; -1 when the event has no "args"
  // Position in the file's event array (traceEvents[index]; a "B"/"E" pair: the "B"'s), so a
  // unit built from the event can name it. Fits the struct's padding: no memory per event.
  std::int32_t index = -1;
};

// One point of a flow ("s" start, "t" step, "f" end; Kineto's "ac2g" flows link a CPU launch to
// its GPU kernel). Kept with the events; `lane` indexes ImportedTrace::lanes (-1: a pid/tid with
// no events).
struct TraceFlowPoint {
  double ts_us = 0.0;
  std::int32_t lane = -1;
  std::int32_t id = 0;   // the flow's "id" as text, interned into ImportedTrace::names
  std::int32_t cat = 0;  // into ImportedTrace::names
  char phase = 's';
};

// The `args.correlation` of a complete event: the id CUDA's profiling interface gives a runtime
// call (cudaLaunchKernel, ...) and the GPU operation it launched; Kineto writes it on both, which
// is how HTA joins them. Kept (events kept only) for the events that carry an integer one.
struct TraceCorrelation {
  std::int64_t id = 0;
  std::int32_t index = -1;  // the event's position in the event array (TraceEvent::index)
};

// One "[memory]" instant event of a PyTorch profiler trace: the caching allocator's totals for
// one device right after an allocation or a free. Kept (events kept only) in 32 bytes, a third of
// a complete event with its args, so the summary can find the peaks of windows it only knows
// after the import (the ProfilerStep spans).
struct TraceMemorySample {
  double ts_us = 0.0;
  std::int64_t allocated = 0;  // args["Total Allocated"]
  std::int64_t reserved = -1;  // args["Total Reserved"]; -1: the event has none
  std::int32_t device = 0;     // into ImportedTrace::memory_devices
};

// One series of the counter ("ph": "C") events of one name: {"name": N, "args": {S: value}}.
// Reduced as the events stream by (the file's counters are few, their events may be many).
struct TraceCounterSeries {
  std::string name;
  std::string series;
  std::int64_t count = 0;
  double min = 0.0;
  double max = 0.0;
  double last = 0.0;     // the value of the latest event (ties: the later one in the file)
  double last_us = 0.0;  // its time
};

// One point of a counter series: the value from this time on, until the next point.
struct TraceCounterPoint {
  double ts_us = 0.0;
  double value = 0.0;
};

// The points of one counter series of one process ({"ph": "C", "pid": P, "name": N, "args":
// {S: value}}), sorted by time (ties: file order): what the trace view draws as a counter track.
// TraceCounterSeries reduces the same events over every process.
struct TraceCounterTrack {
  std::string pid;
  std::string name;
  std::string series;
  std::vector<TraceCounterPoint> points;
};

struct TraceLane {
  std::string pid;  // as in the file (numbers printed as text)
  std::string tid;
  // From "M" metadata when present: "process / thread", where the process part is
  // process_label() (process_name with its process_labels: Kineto names the CPU and the GPU
  // process alike, "python3", and tells them apart by labels, "CPU" and "GPU 0").
  std::string label;
  std::string process_name;  // the parts of `label`, kept apart for lane mappings
  std::string process_labels;
  std::string thread_name;
  std::vector<TraceEvent> events;  // sorted by start (ties: longer first, so parents precede)
  std::int64_t count = 0;          // complete events on this lane (also when not kept)
  // Instant events ("i"/"I": the profiler's "[memory]" allocations, "Iteration Start") with a
  // time, kept (events kept only) as events of zero duration, sorted by time (ties: file order),
  // for the trace view's markers and search. Apart from `events`, so that statistics, nesting
  // and summaries of complete events stay what they were.
  std::vector<TraceEvent> instants;
};

// "3 unmatched B/E events (an "E" with no open "B" on its thread, or a "B" never closed)": what
// every command that reads a trace warns about when ImportedTrace::unmatched is not 0.
std::string unmatched_events_text(std::int64_t unmatched);

// The process part of a lane's label: "python3 (GPU 0)" with both a process_name and
// process_labels, whichever exists alone, or "" with neither. Labels equal to the name are not
// repeated.
std::string process_label(const TraceLane& lane);

struct ImportedTrace {
  std::string source;
  std::vector<std::string> names;  // interned event names and categories
  std::vector<std::string> args;   // each event's "args" object as compact JSON text (tooltips)
  int rank = -1;  // distributedInfo.rank of a PyTorch profiler trace; -1 when the file has none
  std::vector<TraceLane> lanes;
  std::vector<TraceFlowPoint> flows;  // flow points with an id, in file order (events kept only)
  // args.correlation of the complete events that have one, by index (file order); read whether
  // or not the args text is kept (TraceImportOptions::keep_args).
  std::vector<TraceCorrelation> correlations;
  // "[memory]" events (events kept only), sorted by device then time (ties: file order), and the
  // devices they name: "cpu" (args["Device Type"] 0), "cuda:N" (1, args["Device Id"] N), "type
  // T:N" for other types, "unknown" without a numeric Device Type.
  std::vector<TraceMemorySample> memory;
  std::vector<std::string> memory_devices;
  // "[memory]" events not kept: without a numeric args["Total Allocated"] or "ts" (bad input),
  // and past TraceImportOptions::memory_budget_bytes.
  std::int64_t memory_skipped = 0;
  std::int64_t memory_dropped = 0;
  // Counter series (events kept only), by name then series.
  std::vector<TraceCounterSeries> counters;
  // Their points per process (events kept only), by pid, name, series; points past
  // TraceImportOptions::memory_budget_bytes (shared with the "[memory]" samples) are counted in
  // counter_points_dropped and left out (the reductions above still count them).
  std::vector<TraceCounterTrack> counter_tracks;
  std::int64_t counter_points_dropped = 0;
  std::map<std::string, std::int64_t> by_phase;  // count of events per "ph"
  std::int64_t events = 0;                       // all trace events read
  double span_us = 0.0;                          // last end - first start over timed events
  std::int64_t unmatched = 0;  // "B" without a later "E" and "E" without an open "B"
  std::int64_t bytes = 0;      // JSON text size (decompressed for .gz)
  // Events whose "args" were not kept because TraceImportOptions::args_budget_bytes was spent.
  std::int64_t args_dropped = 0;
  // The text ended inside the event array, after a whole event (and maybe a comma): what a process
  // that stopped while writing leaves, valid Trace Event Format that Perfetto and chrome://tracing
  // open too. The events up to there are read; keys after the array were never written.
  bool unterminated = false;
};

struct TraceImportOptions {
  bool keep_events = true;  // false: count only (trace info)
  // Each kept event's "args" as text in ImportedTrace::args (tooltips). Off: args are skipped
  // unread and every TraceEvent::args is -1 (a third less memory on Kineto traces).
  bool keep_args = true;
  // Memory the args text may take (string headers included). Real profiler args run to 200-400
  // characters an event, so 10M events would need several GB; past the budget later events keep
  // no args (ImportedTrace::args_dropped counts them) and memory stays bounded.
  std::int64_t args_budget_bytes = std::int64_t{256} << 20;
  // Memory the "[memory]" samples may take (32 bytes each: 8M events by default); later ones are
  // counted in ImportedTrace::memory_dropped, so a trace of many allocations stays bounded.
  std::int64_t memory_budget_bytes = std::int64_t{256} << 20;
  // A gzip file whose text (by its trailer) is at most this is inflated whole with libdeflate,
  // 2-3x faster than streaming through zlib, holding the text; larger ones stream (0: always).
  std::int64_t whole_gzip_text_bytes = std::int64_t{256} << 20;
};

// Reads a trace file (".json" or ".json.gz", told by its first bytes; a pipe too): a JSON array
// of events or an object with "traceEvents", whose array may be unterminated (see
// ImportedTrace::unterminated). Streamed: the text is read or inflated piece by piece and never
// held whole, so the peak memory is what is kept plus a bounded window (about 1 MiB; more only for
// one event larger than that); except a gzip file of at most whole_gzip_text_bytes of text, which
// is inflated whole for speed. Errors name the file and the
// reason (for JSON syntax, the byte offset in the text).
Expected<ImportedTrace> import_chrome_trace(const std::string& path,
                                            const TraceImportOptions& options = {},
                                            const CancelToken& cancel = CancelToken::none(),
                                            ProgressSink& progress = ProgressSink::none());

// Several files (the ranks of a run) on the pool's workers, one file per worker at a time: each
// holds its own window, so the peak is what the files keep plus one window per worker. Results in
// the order of `paths`. Progress is the mean of the files' fractions, reported under a lock.
std::vector<Expected<ImportedTrace>> import_chrome_traces(
    const std::vector<std::string>& paths, const TraceImportOptions& options, TaskPool& pool,
    const CancelToken& cancel = CancelToken::none(), ProgressSink& progress = ProgressSink::none());

// The same for JSON text already in memory; `source_name` prefixes error messages.
Expected<ImportedTrace> import_chrome_trace_text(const std::string& json,
                                                 const std::string& source_name,
                                                 const TraceImportOptions& options = {},
                                                 const CancelToken& cancel = CancelToken::none(),
                                                 ProgressSink& progress = ProgressSink::none());

}  // namespace slimpack
