// Chrome Trace Event / Kineto JSON text, as `slimpack trace info` and the explorer read it, with
// the default lane mapping of the imported lanes, and mapped as one rank of a run (every lane one
// stage) with the GPU time followed along its ac2g flows.
#include "fuzz_util.h"
#include "trace/trace_import.h"
#include "trace/trace_lanes.h"
#include "trace/trace_units.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  const std::string text = fuzz::as_text(data, size);
  auto trace = import_chrome_trace_text(text, "fuzz.json");
  fuzz::require_message(trace, "trace: error without message");
  // Args are checked three ways (kept, walked unkept, skipped with the events by `trace info`):
  // a file is accepted or refused the same by all of them.
  TraceImportOptions count_only, no_args;
  count_only.keep_events = false;
  no_args.keep_args = false;
  auto counted = import_chrome_trace_text(text, "fuzz.json", count_only);
  auto unkept = import_chrome_trace_text(text, "fuzz.json", no_args);
  fuzz::require(counted.ok() == trace.ok() && unkept.ok() == trace.ok(),
                "trace: import modes disagree on whether the file is well-formed");
  if (!trace) return 0;
  fuzz::require(counted->events == trace->events && unkept->events == trace->events,
                "trace: import modes count different events");
  std::int64_t kept = 0;
  for (const TraceLane& lane : trace->lanes) {
    kept += static_cast<std::int64_t>(lane.events.size());
    for (const TraceEvent& e : lane.events) {
      fuzz::require(e.dur_us >= 0.0, "trace: negative duration");
      fuzz::require(e.name >= 0 && static_cast<std::size_t>(e.name) < trace->names.size(),
                    "trace: event name out of range");
    }
  }
  fuzz::require(kept <= trace->events, "trace: more complete events than events");
  (void)default_lane_mapping(*trace);
  for (const TraceFlowPoint& f : trace->flows)
    fuzz::require(f.lane >= -1 && f.lane < static_cast<std::int32_t>(trace->lanes.size()),
                  "trace: flow lane out of range");
  auto rules = builtin_unit_rules("slimpack");
  auto mapped = map_trace_files({{&*trace, "rank.json", rank_lane_mapping(*trace, 0, 1)}}, *rules,
                                GpuTime::Flows);
  fuzz::require_message(mapped, "trace: mapping error without message");
  if (mapped)
    for (const MeasuredUnit& u : mapped->units)
      fuzz::require(u.dur_us >= 0.0 && u.stage == 1 && u.event < trace->events && u.kernels >= 0,
                    "trace: unit out of range");
  return 0;
}
