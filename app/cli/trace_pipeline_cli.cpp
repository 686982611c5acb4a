#include "trace_pipeline_cli.h"

#include <cstdio>

#include "app/input_file.h"
#include "app/pipeline.h"
#include "app/trace_pipeline_report.h"
#include "args.h"
#include "output.h"
#include "plan_request.h"
#include "setup.h"
#include "thread_pool.h"

namespace slimpack::cli {
namespace {

constexpr std::size_t kWorstWaitsShown = 5;

std::vector<OptionSpec> pipeline_specs() {
  std::vector<OptionSpec> specs = {
      {"plan", "FILE",
       "the plan or schedule JSON that ran (required; a schedule fixes the model); simulated as "
       "simulate --plan does"},
      {"json", "FILE",
       "write {makespan_us, stages: [{stage, busy_us, idle_us, bubbles_by_cause: {dependency, "
       "transfer, fill, other}, waits}], critical_path, simulated: {...}} ('-' = stdout)"}};
  for (auto& s : trace_options()) specs.push_back(s);
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"help", "", "show this help"});
  return specs;
}

// The plan simulated as `simulate --plan` simulates it (the same request: plan_request.h).
Expected<SnapshotPtr> simulate_plan(const Args& args, const std::string& path) {
  auto request = plan_file_request(args, path);
  if (!request) return request.error();
  auto snap = run_pipeline(*request, CancelToken::none(), ProgressSink::none());
  if (!snap) return as_option_error(snap.error());
  return std::make_shared<const ExplorerSnapshot>(std::move(*snap));
}

}  // namespace

int trace_pipeline(int argc, char** argv) {
  const auto specs = pipeline_specs();
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace pipeline", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack trace pipeline RUN --plan PLAN [--trace-rules NAME] [--json FILE]",
                    "Where a measured run's pipeline bubbles come from. RUN: its trace files, one "
                    "per rank, or a folder of them (as --check-trace takes them). Each stage's "
                    "idle time between the run's first unit and its last is classified: fill "
                    "(before the stage's first unit; drain after its last), dependency (waiting "
                    "for a message whose producing unit on another stage had not finished: named), "
                    "transfer (producer done, receive not complete), other (host, launch gaps). "
                    "With the measured critical path through units and messages, and the same "
                    "for the simulated plan beside it. Definitions: docs/user-guide-traces.md.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().empty())
    return report_error("trace pipeline",
                        Error::bad_input("no run given: its trace files or their folder"));
  const auto plan_path = args->get("plan");
  if (!plan_path)
    return report_error(
        "trace pipeline",
        Error::bad_input("--plan FILE is required (the plan or schedule that ran)"));
  TraceRunRequest request;
  request.files = args->positional();
  auto spec = trace_spec(*args);
  if (!spec) return report_error("trace pipeline", spec.error());
  request.options = std::move(*spec);
  if (auto rules = trace_rule_set(request); !rules)
    return report_error("trace pipeline", rules.error());
  auto snap = simulate_plan(*args, *plan_path);
  if (!snap) return report_error("trace pipeline", snap.error());
  ThreadPool pool(0);  // the rank files are imported in parallel
  auto run = load_trace_run(request, false, CancelToken::none(), ProgressSink::none(), pool);
  if (!run) return report_error("trace pipeline", run.error());
  const ExplorerSnapshot& s = **snap;
  auto result = trace_pipeline_run(*run, request, *s.plan, s.sim, s.cost.get());
  if (!result) return report_error("trace pipeline", result.error());
  const bool json_stdout = args->get_or("json", "") == "-";
  if (auto dest = args->get("json"))
    if (Status st = write_json_output(*dest, trace_pipeline_json(*run, *result)); !st)
      return report_error("trace pipeline", st.error());
  if (!json_stdout)
    std::fputs(trace_pipeline_text(*run, *result, kWorstWaitsShown).c_str(), stdout);
  return kExitOk;
}

}  // namespace slimpack::cli
