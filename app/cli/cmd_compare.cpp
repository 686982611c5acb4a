// slimpack compare: several strategies on one workload, with speed-up over the first one listed.
#include <cstdio>
#include <optional>

#include "args.h"
#include "commands.h"
#include "image_export.h"
#include "io/strategy_variant.h"
#include "output.h"
#include "pipeline.h"
#include "setup.h"

namespace slimpack::cli {
namespace {

// Display cells of one comparison row: strategy, iteration, speed-up, bubble, peak memory, peak
// memory per stage (GB), solver time, gap to the per-stage work bound.
std::vector<std::string> table_cells(const nlohmann::json& row) {
  std::vector<std::string> c(8, "-");
  c[0] = row["strategy"].get<std::string>();
  if (row.contains("error")) return c;
  c[1] = format_seconds(row["iteration_time"].get<double>());
  if (row["speedup"].is_number()) {
    char v[32];
    std::snprintf(v, sizeof v, "%.2fx", row["speedup"].get<double>());
    c[2] = v;
  }
  c[3] = format_percent(row["bubble_ratio"].get<double>());
  c[7] = format_percent(row["gap_to_bound"].get<double>());
  c[4] = format_bytes(row["peak_memory_bytes"].get<double>());
  std::string per_stage;
  for (const auto& b : row["stage_peak_memory_bytes"]) {
    char v[32];
    std::snprintf(v, sizeof v, "%s%.1f", per_stage.empty() ? "" : " / ", b.get<double>() / 1e9);
    per_stage += v;
  }
  c[5] = per_stage;
  c[6] = format_seconds(row["solver_seconds"].get<double>());
  return c;
}

// "infeasible: REASON", or the variant's "not applicable: ..." as it stands.
std::string failure_text(const nlohmann::json& row) {
  const std::string reason = row["error"].get<std::string>();
  return row.value("not_applicable", false) ? reason : "infeasible: " + reason;
}

}  // namespace

int cmd_compare(int argc, char** argv) {
  std::vector<OptionSpec> specs = workload_options();
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back(
      {"strategies", "LIST",
       "comma-separated strategies (default fixed,balanced,sliced,slimpack); a variant "
       "NAME:key=value[:key=value] changes cp, recompute, stage-layers, context, slice, "
       "packs, pack-tokens, tp or slimpack's asymmetric|dp-aware|dp-merge=on|off for that row "
       "(GPU count held fixed: e.g. fixed:cp=2)"});
  specs.push_back({"json", "FILE", "write {\"rows\": [...]} ('-' = stdout)"});
  specs.push_back({"markdown", "FILE", "write the table as Markdown ('-' = stdout)"});
  for (auto& s : image_options()) specs.push_back(s);
  specs.push_back({"help", "", "show this help"});
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("compare", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help(
            "slimpack compare [--lengths FILE | --preset NAME] [--strategies LIST] [options]",
            "Runs each strategy on the same workload and configuration and prints "
            "iteration time, speed-up over the first strategy, bubble ratio and peak memory.",
            specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (!args->positional().empty())
    return report_error("compare",
                        Error::bad_input("unexpected argument '" + args->positional()[0] + "'"));
  std::vector<std::string> strategies = args->get_list("strategies");
  if (strategies.empty()) strategies = {"fixed", "balanced", "sliced", "slimpack"};
  auto setup = make_setup(*args);
  if (!setup) return report_error("compare", setup.error());
  std::vector<StrategyVariant> variants;
  for (const auto& s : strategies) {
    auto v = parse_strategy_variant(s, setup->config);
    if (!v) return report_error("compare", Error::bad_input("--strategies: " + v.error().message));
    variants.push_back(std::move(*v));
  }

  const bool images = args->has("png") || args->has("svg") || args->has("pdf");
  // A strategy that cannot place the batch (e.g. a pack over the memory cap) is a row of the table
  // with its reason, not a failure of the whole comparison: that is a result users need to see.
  // Each variant runs with its own configuration at the base GPU count.
  std::vector<std::optional<RunOutcome>> runs;
  std::vector<std::string> errors;
  std::vector<std::shared_ptr<const CostModel>> costs;
  for (const auto& v : variants) {
    costs.push_back(nullptr);
    if (!v.not_applicable.empty()) {
      errors.push_back(v.not_applicable);
      runs.push_back(std::nullopt);
      continue;
    }
    RunSetup variant = *setup;
    variant.config = v.config;
    if (v.config != setup->config) {
      auto cost = make_cost_model(v.config, {}, &setup->workload.batch);
      if (!cost)
        return report_error("compare", cost.error().with_context("--strategies " + v.label));
      variant.cost = *cost;
      variant.params = make_strategy_params(v.config, setup->params.seed);
    }
    costs.back() = variant.cost;
    auto run = run_strategy(variant, v.strategy, variant.params, images);
    if (!run && run.error().kind != ErrorKind::Infeasible)
      return report_error("compare", run.error());
    std::string reason = run ? "" : run.error().message;
    if (const std::string prefix = "strategy " + v.strategy + ": "; reason.rfind(prefix, 0) == 0)
      reason = reason.substr(prefix.size());
    errors.push_back(reason);
    runs.push_back(run ? std::optional<RunOutcome>(std::move(*run)) : std::nullopt);
  }
  nlohmann::json rows = nlohmann::json::array();
  const double base = runs.front() ? runs.front()->sim.iteration_time : 0.0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const ConfigSpec& vc = variants[i].config;
    if (!runs[i]) {
      rows.push_back({{"strategy", strategies[i]},
                      {"not_applicable", !variants[i].not_applicable.empty()},
                      {"iteration_time", nullptr},
                      {"speedup", nullptr},
                      {"bubble_ratio", nullptr},
                      {"gap_to_bound", nullptr},
                      {"peak_memory_bytes", nullptr},
                      {"stage_peak_memory_bytes", nlohmann::json::array()},
                      {"tokens_per_second", nullptr},
                      {"solver_seconds", nullptr},
                      {"legal", false},
                      {"error", errors[i]}});
      continue;
    }
    const auto& r = runs[i]->sim;
    nlohmann::json stage_peaks = nlohmann::json::array();
    for (std::size_t st = 0; !r.replicas.empty() && st < r.replicas[0].stages.size(); ++st) {
      double peak = 0.0;
      for (const auto& rep : r.replicas) peak = std::max(peak, rep.stages[st].peak_memory_bytes);
      stage_peaks.push_back(peak);
    }
    rows.push_back(
        {{"strategy", strategies[i]},
         {"iteration_time", r.iteration_time},
         {"speedup", base > 0 && r.iteration_time > 0 ? nlohmann::json(base / r.iteration_time)
                                                      : nlohmann::json(nullptr)},
         {"bubble_ratio", r.bubble_ratio},
         {"gap_to_bound", r.gap_to_bound},
         {"peak_memory_bytes", r.peak_memory_bytes},
         {"stage_peak_memory_bytes", stage_peaks},
         {"tokens_per_second", r.tokens_per_second},
         {"solver_seconds", runs[i]->solve.stats.total_seconds},
         {"legal", r.legal},
         {"dp", vc.dp},
         {"cp", vc.cp},
         {"tp", vc.tp},
         {"recompute", recompute_name(vc.recompute)},
         {"recompute_layers", runs[i]->solve.plan.recompute_layers},
         {"stage_layers", costs[i]->stage_layers()}});
  }
  nlohmann::json j = {{"workload", setup->workload.label},
                      {"model", setup->model_name},
                      {"gpu", setup->gpu_name},
                      {"pp", setup->cost->parallel().pp},
                      {"dp", setup->cost->parallel().dp},
                      {"tp", setup->cost->parallel().tp},
                      {"rows", rows}};
  if (images) {
    std::vector<GanttEntry> entries;
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (runs[i]) entries.push_back({strategies[i], &runs[i]->solve.plan, &runs[i]->sim});
    if (entries.empty())
      return report_error("compare", Error::infeasible("no strategy produced a plan to draw"));
    if (Status s = export_images(*args, "compare on " + setup->workload.label, entries); !s)
      return report_error("compare", s.error());
  }
  if (auto dest = args->get("markdown")) {
    std::string md =
        "| strategy | iteration time | speed-up | bubble | gap to work bound | peak memory | per "
        "stage (GB) | solver time |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n";
    for (const auto& row : rows) {
      const auto c = table_cells(row);
      if (row.contains("error")) {
        md += "| " + c[0] + " | " + failure_text(row) + " | | | | | | |\n";
        continue;
      }
      md += "| " + c[0] + " | " + c[1] + " | " + c[2] + " | " + c[3] + " | " + c[7] + " | " + c[4] +
            " | " + c[5] + " | " + c[6] + " |\n";
    }
    if (Status s = write_text_output(*dest, md); !s) return report_error("compare", s.error());
  }
  const bool json_stdout = args->get_or("json", "") == "-" || args->get_or("markdown", "") == "-";
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, j); !s) return report_error("compare", s.error());
  }
  if (!json_stdout) {
    std::printf("%s, %s on %s, p=%d d=%d t=%d\n", setup->workload.label.c_str(),
                setup->model_name.c_str(), setup->gpu_name.c_str(), setup->cost->parallel().pp,
                setup->cost->parallel().dp, setup->cost->parallel().tp);
    int w = 10;
    for (const auto& v : variants) w = std::max(w, static_cast<int>(v.label.size()));
    std::printf("%-*s %12s %9s %8s %12s %11s\n", w, "strategy", "iteration", "speed-up", "bubble",
                "peak memory", "solver");
    for (const auto& row : rows) {
      const auto c = table_cells(row);
      if (row.contains("error")) {
        std::printf("%-*s %s\n", w, c[0].c_str(), failure_text(row).c_str());
        continue;
      }
      std::printf("%-*s %12s %9s %8s %12s %11s%s\n", w, c[0].c_str(), c[1].c_str(), c[2].c_str(),
                  c[3].c_str(), c[4].c_str(), c[6].c_str(),
                  row["legal"].get<bool>() ? "" : "  (illegal)");
    }
  }
  return kExitOk;
}

}  // namespace slimpack::cli
