// slimpack solve: build a plan for a workload with a strategy, write it and print solver
// statistics.
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "common/json_util.h"
#include "output.h"
#include "plan/plan_json.h"
#include "plan_summary.h"
#include "schedule_cli.h"
#include "setup.h"
#include "solver/strategy.h"

namespace slimpack::cli {

int cmd_solve(int argc, char** argv) {
  std::vector<OptionSpec> specs = workload_options();
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"out", "FILE", "write the plan JSON here ('-' = stdout)"});
  specs.push_back({"json", "FILE", "write solver statistics JSON ('-' = stdout)"});
  specs.push_back(schedule_out_option());
  specs.push_back({"help", "", "show this help"});
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("solve", args.error());
  if (args->has("help")) {
    std::fputs(format_help("slimpack solve [--lengths FILE | --preset NAME] [options] --out FILE",
                           "Builds a plan with the chosen strategy and writes it as JSON "
                           "(format slimpack-plan, readable by 'slimpack simulate --plan').",
                           specs)
                   .c_str(),
               stdout);
    return 0;
  }
  if (!args->positional().empty())
    return report_error("solve",
                        Error::bad_input("unexpected argument '" + args->positional()[0] + "'"));
  int to_stdout = 0;
  for (const char* key : {"out", "json", "schedule-out"}) to_stdout += args->get_or(key, "") == "-";
  if (to_stdout > 1)
    return report_error(
        "solve", Error::bad_input("only one of --out, --json and --schedule-out can be '-'"));
  auto setup = make_setup(*args);
  if (!setup) return report_error("solve", setup.error());
  SolveInput input;
  input.batch = setup->workload.batch;
  input.cost = setup->cost.get();
  input.params = setup->params;
  auto solved = solve(setup->strategy, input);
  if (!solved) return report_error("solve", solved.error());

  bool stdout_used = false;
  if (auto out = args->get("out")) {
    const std::string text = plan_to_string(solved->plan);
    if (*out == "-") {
      std::fputs(text.c_str(), stdout);
      stdout_used = true;
    } else if (Status s = write_text_output(*out, text); !s) {
      return report_error("solve", s.error());
    }
  }
  if (auto dest = args->get("schedule-out")) {
    if (Status s = write_schedule_output(*dest, solved->plan, setup->cost.get()); !s)
      return report_error("solve", s.error());
    stdout_used = stdout_used || *dest == "-";
  }
  if (auto dest = args->get("json")) {
    nlohmann::json j = {{"solver", solve_stats_to_json(solved->stats)},
                        {"plan", plan_shape_json(solved->plan)},
                        {"workload", setup->workload.label}};
    if (Status s = write_json_output(*dest, j); !s) return report_error("solve", s.error());
    stdout_used = stdout_used || *dest == "-";
  }
  if (!stdout_used) {
    std::printf("%s on %s: %zu sequences, %zu forward / %zu backward packs (replica 0)\n",
                setup->strategy.c_str(), setup->workload.label.c_str(),
                solved->plan.sequences.size(), solved->plan.replicas[0].forward.size(),
                solved->plan.replicas[0].backward.size());
    print_solve_stats(solved->stats);
    if (!args->has("out") && !args->has("schedule-out"))
      std::printf("(no --out given: the plan was not written)\n");
  }
  return kExitOk;
}

}  // namespace slimpack::cli
