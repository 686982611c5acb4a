#pragma once
// The trace options of simulate --check-trace and fit-costs --trace: the files (a comma-separated
// list, a folder for its trace files) and the option table's trace options, as the TraceRunRequest
// of core/app/trace_run.h that the explorer builds from its Traces tab.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "app/trace_run.h"
#include "args.h"
#include "common/status.h"
#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack::cli {

// --check-trace and the table's trace options.
std::vector<OptionSpec> trace_check_options();

// The request for the files in option `files_option` ("check-trace", "trace").
Expected<TraceRunRequest> trace_run_request(const Args& args, const std::string& files_option);
// Whether any trace option of the table is given (they need the files option).
bool has_trace_options(const Args& args);

struct TraceCheckReport {
  nlohmann::json json;  // the result's "trace_check" object
  std::string text;     // the human-readable summary
};

// Without --check-trace: nothing. Otherwise loads the run and holds it against `sim` of `plan`
// (a run of torch's runtime against the padded plan `cost` prices: check_trace_run).
Expected<std::optional<TraceCheckReport>> check_trace_option(const Args& args, const Plan& plan,
                                                             const SimResult& sim,
                                                             const CostModel* cost);

}  // namespace slimpack::cli
