// slimpack simulate: simulate a plan file, or solve a workload with a strategy and simulate it.
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "common/json_util.h"
#include "image_export.h"
#include "output.h"
#include "pipeline.h"
#include "plan/plan_json.h"
#include "plan_summary.h"
#include "setup.h"
#include "sim/result_json.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"
#include "trace_check_cli.h"

namespace slimpack::cli {
namespace {

std::vector<OptionSpec> simulate_specs() {
  std::vector<OptionSpec> specs = {
      {"plan", "FILE", "simulate this plan JSON instead of solving a workload"}};
  for (auto& s : workload_options()) specs.push_back(s);
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"json", "FILE", "write the result JSON ('-' = stdout)"});
  specs.push_back({"ops", "", "include every timed op in the result JSON"});
  specs.push_back({"trace", "FILE", "write a Chrome Trace Event JSON (open it in Perfetto)"});
  specs.push_back({"out", "FILE", "also write the solved plan JSON"});
  for (auto& s : trace_check_options()) specs.push_back(s);
  for (auto& s : image_options()) specs.push_back(s);
  specs.push_back({"quiet", "", "print nothing but errors"});
  specs.push_back({"help", "", "show this help"});
  return specs;
}

struct Simulated {
  Plan plan;
  SimResult sim;
  std::optional<SolveStats> stats;
  std::string title;
  nlohmann::json config;
};

Expected<Simulated> from_plan_file(const Args& args, const std::string& path) {
  auto plan = read_plan_file(path);
  if (!plan) return plan.error();
  Simulated out;
  out.plan = std::move(*plan);
  std::shared_ptr<const CostModel> cost;
  if (!out.plan.has_explicit_times() || args.has("model") || args.has("gpu")) {
    auto c = cost_model_for_plan(args, out.plan.stages, out.plan.dp());
    if (!c) return c.error();
    cost = *c;
    out.config = {
        {"model", cost->model().name}, {"gpu", cost->gpu().name}, {"tp", cost->parallel().tp}};
  }
  auto sim = simulate(out.plan, cost.get());
  if (!sim) return sim.error().with_context(path);
  out.sim = std::move(*sim);
  out.title = "plan " + path;
  out.config["plan"] = path;
  return out;
}

Expected<Simulated> from_workload(const Args& args) {
  auto setup = make_setup(args);
  if (!setup) return setup.error();
  auto run = run_strategy(*setup, setup->strategy, setup->params, /*keep_ops=*/true);
  if (!run) return run.error();
  Simulated out;
  out.plan = std::move(run->solve.plan);
  out.sim = std::move(run->sim);
  out.stats = run->solve.stats;
  out.title = setup->strategy + " on " + setup->workload.label + " (" + setup->model_name + ", " +
              setup->gpu_name + ")";
  const auto& par = setup->cost->parallel();
  out.config = {{"workload", setup->workload.label},
                {"model", setup->model_name},
                {"gpu", setup->gpu_name},
                {"pp", par.pp},
                {"dp", par.dp},
                {"tp", par.tp},
                {"strategy", setup->strategy}};
  return out;
}

}  // namespace

int cmd_simulate(int argc, char** argv) {
  const auto specs = simulate_specs();
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("simulate", args.error());
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

  nlohmann::json j = sim_result_to_json(result->plan, result->sim, args->has("ops"));
  j["config"] = result->config;
  j["plan"] = plan_shape_json(result->plan);
  if (result->stats) j["solver"] = solve_stats_to_json(*result->stats);

  if (auto out = args->get("out")) {
    if (Status s = json_util::write_file_atomic(*out, plan_to_string(result->plan)); !s)
      return report_error("simulate", s.error());
  }
  if (auto trace = args->get("trace")) {
    if (Status s = write_chrome_trace(*trace, result->plan, result->sim); !s)
      return report_error("simulate", s.error());
  }
  if (Status s = export_images(*args, result->title, {{"", &result->plan, &result->sim}}); !s)
    return report_error("simulate", s.error());
  const bool json_to_stdout = args->get_or("json", "") == "-";
  auto check = check_trace_option(*args, result->sim);
  if (!check) return report_error("simulate", check.error());
  if (*check) j["trace_check"] = (*check)->json;
  if (!json_to_stdout && !args->has("quiet")) {
    print_sim_summary(result->title, result->plan, result->sim);
    if (result->stats) print_solve_stats(*result->stats);
    if (*check) std::fputs((*check)->text.c_str(), stdout);
  }
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, j); !s) return report_error("simulate", s.error());
  }
  return kExitOk;
}

}  // namespace slimpack::cli
