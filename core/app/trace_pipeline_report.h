#pragma once
// The result of trace_pipeline_run (core/app/trace_pipeline.h) as `slimpack trace pipeline`
// prints it and writes it with --json, and the pieces the explorer's Bubbles view shows: one
// formatting for every front end.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/trace_pipeline.h"

namespace slimpack {

// {"files": [...], "rules", "units", "messages", "makespan_us",
//  "stages": [{replica, stage, busy_us, idle_us, bubbles_by_cause: {dependency, transfer, fill,
//              other}, waits: [{cause, start_us, end_us, unit, producer: {stage, unit}}]}],
//  "critical_path": [{kind: "unit", replica, stage, unit, start_us, end_us} |
//                    {kind: "message", replica, from_stage, to_stage, unit, start_us, end_us}],
//  "simulated": {makespan_us, stages, critical_path}}
nlohmann::json trace_pipeline_json(const TraceRun& run, const TracePipeline& result);

// The per-stage table (measured beside simulated), both critical paths in short and the `worst`
// longest dependency waits, each naming the unit it waited for.
std::string trace_pipeline_text(const TraceRun& run, const TracePipeline& result,
                                std::size_t worst);

// A time of the analysis (microseconds) as the text and the explorer's table show it: the one
// formatter's, with times under a nanosecond (the rounding of a trace's numbers) as 0.
std::string bubble_time_text(double us);

// "stage 1 B3" for a unit of `b`.
std::string bubble_unit_text(const PipelineBubbles& b, std::int32_t unit);

// The critical path in short: runs of units on one stage and the messages between them
// ("stage 0: F1..F5 (5 units, 75.9 ms)", "message B1 stage 1 -> 0 (0.50 ms)").
std::vector<std::string> critical_path_lines(const PipelineBubbles& b);

// The longest dependency waits over every stage, longest first (at most `count`).
std::vector<IdleInterval> worst_dependency_waits(const PipelineBubbles& b, std::size_t count);

}  // namespace slimpack
