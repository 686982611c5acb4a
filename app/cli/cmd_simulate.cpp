// slimpack simulate: simulate a plan file, or solve a workload with a strategy and simulate it.
#include <cstdio>

#include "app/input_file.h"
#include "app/ops_csv.h"
#include "app/pipeline.h"
#include "args.h"
#include "commands.h"
#include "common/json_util.h"
#include "cost/cost_model.h"
#include "image_export.h"
#include "output.h"
#include "plan/plan_json.h"
#include "plan_request.h"
#include "plan_summary.h"
#include "render/gantt_title.h"
#include "schedule_cli.h"
#include "setup.h"
#include "sim/result_json.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"
#include "trace_check_cli.h"

namespace slimpack::cli {
namespace {

std::vector<OptionSpec> simulate_specs() {
  std::vector<OptionSpec> specs = {
      {"plan", "FILE",
       "simulate this plan or schedule JSON instead of solving a workload (a schedule's setup "
       "fixes the model, parallelism and costs)"}};
  for (auto& s : workload_options()) specs.push_back(s);
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"json", "FILE", "write the result JSON ('-' = stdout)"});
  specs.push_back({"ops", "", "include every timed op in the result JSON"});
  specs.push_back({"trace", "FILE", "write a Chrome Trace Event JSON (open it in Perfetto)"});
  specs.push_back(
      {"ops-csv", "FILE",
       "write every scheduled op as CSV (replica,stage,kind,pack,name,start,end,duration,"
       "tokens; '-' = stdout), as the explorer's File > Export does"});
  specs.push_back({"out", "FILE", "also write the solved plan JSON"});
  specs.push_back(schedule_out_option());
  for (auto& s : trace_check_options()) specs.push_back(s);
  for (auto& s : image_options()) specs.push_back(s);
  specs.push_back({"quiet", "", "print nothing but errors"});
  specs.push_back({"help", "", "show this help"});
  return specs;
}

struct Simulated {
  SnapshotPtr run;  // what core/app's run_pipeline made, as for the explorer
  std::optional<SolveStats> stats;
  std::string title;
  nlohmann::json config;
};

// The explorer's pipeline without its timeline: the same batch, costs, plan and messages.
Expected<SnapshotPtr> run_cli_pipeline(PipelineRequest request) {
  request.build_timeline = false;
  auto snap = run_pipeline(request, CancelToken::none(), ProgressSink::none());
  if (!snap) return as_option_error(snap.error());
  return std::make_shared<const ExplorerSnapshot>(std::move(*snap));
}

Expected<Simulated> from_plan_file(const Args& args, const std::string& path) {
  auto request = plan_file_request(args, path);
  if (!request) return request.error();
  auto run = run_cli_pipeline(std::move(*request));
  if (!run) return run.error();
  Simulated out;
  out.run = *run;
  if (const CostModel* cost = out.run->cost.get())
    out.config = {
        {"model", cost->model().name}, {"gpu", cost->gpu().name}, {"tp", cost->parallel().tp}};
  out.title = "plan " + path;
  out.config["plan"] = path;
  return out;
}

Expected<Simulated> from_workload(const Args& args) {
  auto workload = workload_spec(args);
  if (!workload) return workload.error();
  auto config = config_spec(args);
  if (!config) return config.error();
  PipelineRequest request;
  request.workload = *workload;
  request.config = *config;
  auto run = run_cli_pipeline(std::move(request));
  if (!run) return run.error();
  Simulated out;
  out.run = *run;
  out.stats = out.run->solve_stats;
  const ConfigSpec& c = out.run->config;
  const std::string model = model_label(c, *out.run->cost);
  out.title = c.strategy + " on " + out.run->workload_label + " (" + model + ", " + c.gpu + ")";
  const auto& par = out.run->cost->parallel();
  out.config = {{"workload", out.run->workload_label},
                {"model", model},
                {"gpu", c.gpu},
                {"pp", par.pp},
                {"dp", par.dp},
                {"tp", par.tp},
                {"strategy", c.strategy}};
  return out;
}

}  // namespace

int cmd_simulate(int argc, char** argv) {
  const auto specs = simulate_specs();
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("simulate", args.error());
  const auto to_stdout = stdout_output(
      *args, {"json", "ops-csv", "out", "schedule-out", "trace", "png", "svg", "pdf"});
  if (!to_stdout) return report_error("simulate", to_stdout.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack simulate (--plan FILE | [--lengths FILE | --preset NAME]) [options]",
                    "Simulates the pipeline schedule of a plan (file or solved from a workload) "
                    "and prints iteration time, bubble ratio, throughput and memory.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (!args->positional().empty())
    return report_error("simulate",
                        Error::bad_input("unexpected argument '" + args->positional()[0] + "'"));

  auto result =
      args->has("plan") ? from_plan_file(*args, *args->get("plan")) : from_workload(*args);
  if (!result) return report_error("simulate", result.error());

  const Plan& plan = *result->run->plan;
  const SimResult& sim = result->run->sim;
  nlohmann::json j = sim_result_to_json(plan, sim, args->has("ops"));
  j["config"] = result->config;
  j["plan"] = plan_shape_json(plan);
  if (result->stats) j["solver"] = solve_stats_to_json(*result->stats);

  if (auto out = args->get("out")) {
    if (Status s = write_text_output(*out, plan_to_string(plan)); !s)
      return report_error("simulate", s.error());
  }
  if (auto dest = args->get("schedule-out")) {
    if (Status s = write_schedule_output(*dest, plan, result->run->cost.get()); !s)
      return report_error("simulate", s.error());
  }
  if (auto trace = args->get("trace")) {
    if (Status s = write_chrome_trace(*trace, plan, sim); !s)
      return report_error("simulate", s.error());
  }
  if (auto csv = args->get("ops-csv")) {
    if (Status s = write_text_output(*csv, ops_csv(plan, sim)); !s)
      return report_error("simulate", s.error());
  }
  // The picture names what a slide reader needs: workload, p, t, d, S, strategy, iteration time.
  const CostModel* cost = result->run->cost.get();
  const std::string picture_title = gantt_title(
      gantt_title_facts(plan, sim, result->run->workload_label, cost ? cost->parallel().tp : 0));
  if (Status s = export_images(*args, picture_title, {{"", &plan, &sim}}); !s)
    return report_error("simulate", s.error());
  // Something written to stdout is the command's output: no summary around it.
  const bool json_to_stdout = *to_stdout;
  auto check = check_trace_option(*args, plan, sim, cost);
  if (!check) return report_error("simulate", check.error());
  if (*check) j["trace_check"] = (*check)->json;
  if (!json_to_stdout && !args->has("quiet")) {
    print_sim_summary(result->title, plan, sim);
    if (result->stats) print_solve_stats(*result->stats);
    if (*check) std::fputs((*check)->text.c_str(), stdout);
  }
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, j); !s) return report_error("simulate", s.error());
  }
  return kExitOk;
}

}  // namespace slimpack::cli
