#pragma once
// Chrome Trace Event JSON export of a simulation (loadable in Perfetto and chrome://tracing).
// One process per replica ("replica r"), per stage one compute thread ("stage s", tid 2s) and one
// comm thread ("stage s p2p", tid 2s+1). F/B packs are "X" events named "F3"/"B2" (1-based) with
// cat "forward"/"backward" (cname "rail_response" / "thread_state_iowait": blue and orange in
// chrome://tracing, as in the explorer) and args {pack (0-based), chunk, tokens, attention_pairs,
// segments
// ["id[begin:end)", ...] (first 64, then segments_total)}; P2P sends and DP syncs are "X" events on
// the comm thread. For Perfetto: flow events (cat "slice", "s" -> "f") join, on every stage, each
// forward pack to every backward pack that consumes its slices; a counter track per stage
// ("memory stage s", "C" events, args {GB}) follows the simulated memory timeline; processes and
// threads carry names and sort indices. Times in microseconds: seconds * 1e6 with a cost model;
// explicit-time plans map 1 unit to 1 ms (1000 us), recorded in otherData.us_per_unit.
#include <string>

#include "common/status.h"
#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

// Microseconds per time unit of `result` (1e6 for seconds, 1000 for abstract units).
double trace_us_per_unit(const SimResult& result);

std::string chrome_trace_json(const Plan& plan, const SimResult& result);

// Writes the trace by the output-file rule (common/output_file.h); the error names the file.
Status write_chrome_trace(const std::string& path, const Plan& plan, const SimResult& result);

}  // namespace slimpack
