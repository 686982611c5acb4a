#pragma once
// The result of check_trace_run (core/app/trace_run.h) as the CLI prints it and writes it in
// `--json` ("trace_check"), and the provenance line of a unit that the explorer's table shows: one
// formatting for every front end.
#include <nlohmann/json.hpp>

#include <string>

#include "app/trace_run.h"

namespace slimpack {

// {"files": [{file, rank, rank_from, shift_us}], "rules", "gpu_time", "matched_units",
//  "only_simulated", "only_measured", "mape", "simulated_makespan_us", "measured_makespan_us",
//  "makespan_error", "units": [{replica, stage, pass, pack, simulated_us, measured_us, error,
//  "events": [{file, event, name, kernels}]}]}. A run that cannot be of the plan
//  (TraceRunCheck::mismatch) has "mismatch" (the reason) instead of "mape", "makespan_error" and
//  each unit's "error".
nlohmann::json trace_check_json(const TraceRun& run, const TraceRunRequest& request,
                                const TraceRunCheck& result);

// The summary and the `worst` largest errors, each naming its events; for a run that cannot be
// of the plan, the reason and the two makespans instead.
std::string trace_check_text(const TraceRun& run, const TraceRunCheck& result, std::size_t worst);

// "rank0.json#12 F3" per event of a unit, joined by ", " ("+4 kernels" when flows were followed).
std::string unit_events_text(const UnitComparison& unit, const TraceCheck& check);

}  // namespace slimpack
