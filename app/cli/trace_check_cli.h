#pragma once
// simulate --check-trace: a measured profiler trace held against the simulation just run.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "common/status.h"
#include "sim/sim_result.h"
#include "trace/trace_import.h"
#include "trace/trace_lanes.h"
#include "trace/trace_units.h"

namespace slimpack::cli {

std::vector<OptionSpec> trace_check_options();

struct TraceCheckReport {
  nlohmann::json json;  // the result's "trace_check" object
  std::string text;     // the human-readable summary
};

// The options simulate --check-trace and fit-costs --trace share: --trace-rules (a built-in set's
// name or a rules file; default slimpack) and --trace-lanes (a lane mapping file; default: our
// exports' names, else one stage per process).
Expected<UnitRuleSet> trace_rules_option(const Args& args);
Expected<LaneMapping> trace_lanes_option(const Args& args, const ImportedTrace& trace);

// Without --check-trace: nothing. Otherwise reads, maps and compares the trace.
Expected<std::optional<TraceCheckReport>> check_trace_option(const Args& args,
                                                             const SimResult& sim);

}  // namespace slimpack::cli
