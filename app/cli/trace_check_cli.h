#pragma once
// simulate --check-trace: a measured profiler trace held against the simulation just run.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "common/status.h"
#include "sim/sim_result.h"

namespace slimpack::cli {

std::vector<OptionSpec> trace_check_options();

struct TraceCheckReport {
  nlohmann::json json;  // the result's "trace_check" object
  std::string text;     // the human-readable summary
};

// Without --check-trace: nothing. Otherwise reads, maps and compares the trace.
Expected<std::optional<TraceCheckReport>> check_trace_option(const Args& args,
                                                             const SimResult& sim);

}  // namespace slimpack::cli
