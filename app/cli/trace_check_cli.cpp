#include "trace_check_cli.h"

#include "thread_pool.h"

#include "app/config_options.h"
#include "app/trace_report.h"
#include "setup.h"

namespace slimpack::cli {
namespace {

constexpr std::size_t kWorstUnitsShown = 5;

}  // namespace

std::vector<OptionSpec> trace_check_options() {
  std::vector<OptionSpec> specs = {
      {"check-trace", "FILE[,FILE...]",
       "compare a measured run with this simulation (per-unit error, MAPE, makespan): its trace "
       "files, one per rank, comma-separated, or a folder of them"}};
  for (auto& s : trace_options()) specs.push_back(s);
  return specs;
}

bool has_trace_options(const Args& args) {
  for (const ConfigOption& o : options_in(OptionSection::Traces))
    if (args.has(std::string(o.flag))) return true;
  return false;
}

Expected<TraceRunRequest> trace_run_request(const Args& args, const std::string& files_option) {
  TraceRunRequest request;
  request.files = args.get_list(files_option);
  if (request.files.empty())
    return Error::bad_input("--" + files_option + ": expected one or more trace files");
  auto spec = trace_spec(args);
  if (!spec) return spec.error();
  request.options = std::move(*spec);
  return request;
}

Expected<std::optional<TraceCheckReport>> check_trace_option(const Args& args, const Plan& plan,
                                                             const SimResult& sim,
                                                             const CostModel* cost) {
  if (!args.has("check-trace")) {
    if (has_trace_options(args))
      return Error::bad_input("the --trace-* options need --check-trace FILE[,FILE...]");
    return std::optional<TraceCheckReport>{};
  }
  auto request = trace_run_request(args, "check-trace");
  if (!request) return request.error();
  if (auto rules = trace_rule_set(*request); !rules) return rules.error();
  ThreadPool pool(0);  // the rank files are imported in parallel
  auto run = load_trace_run(*request, false, CancelToken::none(), ProgressSink::none(), pool);
  if (!run) return run.error();
  auto result = check_trace_run(*run, *request, plan, sim, cost);
  if (!result) return result.error();
  return std::optional<TraceCheckReport>{
      TraceCheckReport{trace_check_json(*run, *request, *result),
                       trace_check_text(*run, *result, kWorstUnitsShown)}};
}

}  // namespace slimpack::cli
