// slimpack sweep: vary one parameter over a list of values; a row per value.
#include <cstdio>

#include "app/config_options.h"
#include "app/sweep.h"
#include "args.h"
#include "commands.h"
#include "output.h"
#include "setup.h"

namespace slimpack::cli {
namespace {

// Options that may carry a comma-separated list of values.
// The options the table (core/app/config_options.h) marks sweepable, in its order.
std::vector<std::string> sweepable_options() {
  std::vector<std::string> names;
  for (const ConfigOption& o : scenario_options())
    if (o.sweepable) names.emplace_back(o.flag);
  return names;
}

// A value with no plan that fits is a row of the result (with its reason), not a failed sweep.
nlohmann::json row_json(const SweepPoint& pt) {
  if (!pt.ok)
    return {{"value", pt.value},
            {"iteration_time", nullptr},
            {"bubble_ratio", nullptr},
            {"tokens_per_second", nullptr},
            {"peak_memory_bytes", nullptr},
            {"solver_seconds", nullptr},
            {"legal", false},
            {"error", pt.error},
            {"limit", limit_json(pt.limit)}};
  return {{"value", pt.value},
          {"iteration_time", pt.iteration_time},
          {"bubble_ratio", pt.bubble_ratio},
          {"tokens_per_second", pt.tokens_per_second},
          {"peak_memory_bytes", pt.peak_memory_bytes},
          {"solver_seconds", pt.solver_seconds},
          {"legal", pt.legal},
          {"limit", nullptr}};
}

}  // namespace

int cmd_sweep(int argc, char** argv) {
  std::vector<OptionSpec> specs = workload_options();
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"json", "FILE", "write {\"parameter\", \"rows\": [...]} ('-' = stdout)"});
  specs.push_back({"markdown", "FILE", "write the table as Markdown ('-' = stdout)"});
  specs.push_back({"help", "", "show this help"});
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("sweep", args.error());
  const auto to_stdout = stdout_output(*args, {"json", "markdown"});
  if (!to_stdout) return report_error("sweep", to_stdout.error());
  if (args->has("help")) {
    std::string summary =
        "Runs the strategy once per value of the one option given as a comma-separated list, "
        "e.g. --slice 1024,2048,4096. Sweepable:";
    for (const auto& s : sweepable_options()) summary += " --" + s;
    std::fputs(format_help("slimpack sweep --slice A,B,C [options]", summary, specs).c_str(),
               stdout);
    return 0;
  }
  if (!args->positional().empty())
    return report_error("sweep",
                        Error::bad_input("unexpected argument '" + args->positional()[0] + "'"));
  std::string param;
  std::vector<std::string> values;
  for (const auto& name : sweepable_options()) {
    auto list = args->get_list(name);
    if (list.size() > 1 || (args->has(name) && args->get(name)->find(',') != std::string::npos)) {
      if (!param.empty())
        return report_error("sweep", Error::bad_input("sweep one parameter at a time (--" + param +
                                                      " and --" + name + " both have lists)"));
      param = name;
      values = list;
    }
  }
  if (param.empty())
    return report_error(
        "sweep",
        Error::bad_input("give one option a comma-separated list, e.g. --slice 2048,4096,8192"));

  // A swept option replaces a --costs file's field: said once, with the whole list.
  if (!values.empty())
    if (auto first = config_spec(args->with(param, values.front()), &*args, {param}); !first)
      return report_error("sweep", first.error().with_context("--" + param + " " + values.front()));
  nlohmann::json rows = nlohmann::json::array();
  std::string strategy;
  for (const auto& v : values) {
    auto setup = make_setup(args->with(param, v));
    if (!setup) return report_error("sweep", setup.error().with_context("--" + param + " " + v));
    // core/app's sweep point, as the explorer's slice-size chart makes it.
    strategy = param == "slice" ? slice_sweep_strategy(setup->strategy) : setup->strategy;
    auto pt =
        sweep_point(v, strategy, setup->workload.batch, RunInputs{setup->cost, setup->params});
    if (!pt) return report_error("sweep", pt.error().with_context("--" + param + " " + v));
    rows.push_back(row_json(*pt));
  }
  nlohmann::json j = {{"parameter", param}, {"strategy", strategy}, {"rows", rows}};
  if (auto dest = args->get("markdown")) {
    std::string md = "| " + param +
                     " | iteration time | bubble | tokens/s | peak memory |\n"
                     "| ---: | ---: | ---: | ---: | ---: |\n";
    for (const auto& row : rows) {
      if (row.contains("error")) {
        md += "| " + row["value"].get<std::string>() +
              " | infeasible: " + row["error"].get<std::string>() + " | | | |\n";
        continue;
      }
      md += "| " + row["value"].get<std::string>() + " | " +
            format_time(row["iteration_time"].get<double>()) + " | " +
            format_percent(row["bubble_ratio"].get<double>()) + " | " +
            format_count(row["tokens_per_second"].get<double>()) + " | " +
            format_bytes(row["peak_memory_bytes"].get<double>()) + " |\n";
    }
    if (Status s = write_text_output(*dest, md); !s) return report_error("sweep", s.error());
  }
  const bool json_stdout = *to_stdout;
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, j); !s) return report_error("sweep", s.error());
  }
  if (!json_stdout) {
    std::printf("sweep of --%s with strategy %s\n", param.c_str(), strategy.c_str());
    std::printf("%-12s %14s %9s %14s %13s\n", param.c_str(), "iteration", "bubble", "tokens/s",
                "peak memory");
    for (const auto& row : rows) {
      if (row.contains("error")) {
        std::printf("%-12s infeasible: %s\n", row["value"].get<std::string>().c_str(),
                    row["error"].get<std::string>().c_str());
        continue;
      }
      std::printf("%-12s %14s %9s %14s %13s\n", row["value"].get<std::string>().c_str(),
                  format_time(row["iteration_time"].get<double>()).c_str(),
                  format_percent(row["bubble_ratio"].get<double>()).c_str(),
                  format_count(row["tokens_per_second"].get<double>()).c_str(),
                  format_bytes(row["peak_memory_bytes"].get<double>()).c_str());
    }
  }
  return kExitOk;
}

}  // namespace slimpack::cli
