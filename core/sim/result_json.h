#pragma once
// Result JSON (docs/design.md sections 7 and 9): the metrics the CLI writes with --json and tests
// read.
#include <nlohmann/json.hpp>

#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

// Keys: makespan, bubble_ratio, iteration_time, tokens_per_second, mfu, legal, legality_message,
// peak_memory_bytes, time_unit, pipeline {stages, dp, schedule, warmup_extra, vchunks},
// replicas[{makespan, finish, tokens, critical_path, stages[{busy, bubble_ratio,
// peak_memory_bytes}]}], stages[] aggregated over replicas (busy: max, bubble_ratio: mean,
// peak_memory_bytes: max) and critical_path {compute, comm, idle} of the slowest replica.
// With `include_ops` each replica stage also holds ops and comm ([{kind, pack, chunk, start, end}],
// pack 0-based) and memory ([[time, bytes], ...]).
nlohmann::json sim_result_to_json(const Plan& plan, const SimResult& result, bool include_ops);

}  // namespace slimpack
