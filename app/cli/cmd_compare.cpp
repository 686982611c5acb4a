// slimpack compare: several strategies on one workload, with speed-up over the first one listed.
#include <cstdio>
#include <optional>

#include "app/compare.h"
#include "app/strategy_variant.h"
#include "args.h"
#include "commands.h"
#include "image_export.h"
#include "output.h"
#include "setup.h"

namespace slimpack::cli {
namespace {

// Display cells of one comparison row: strategy, iteration, speed-up, bubble, peak memory, peak
// memory per stage (GB), solver time, gap to the per-stage work bound.
std::vector<std::string> table_cells(const nlohmann::json& row) {
  std::vector<std::string> c(8, "-");
  c[0] = row["strategy"].get<std::string>();
  if (row.contains("error")) return c;
  // Four digits: rows of one comparison often differ by a few per cent.
  c[1] = format_time_digits(row["iteration_time"].get<double>(), 4);
  if (row["speedup"].is_number()) {
    c[2] = format_ratio(row["speedup"].get<double>());
  }
  c[3] = format_percent(row["bubble_ratio"].get<double>());
  c[7] = format_percent(row["gap_to_bound"].get<double>());
  c[4] = format_bytes(row["peak_memory_bytes"].get<double>());
  // Per-stage peaks in GB with one decimal: the column header names the unit.
  std::string per_stage;
  for (const auto& b : row["stage_peak_memory_bytes"])
    per_stage += (per_stage.empty() ? "" : " / ") + format_fixed(b.get<double>() / 1e9, 1);
  c[5] = per_stage;
  c[6] = format_time(row["solver_seconds"].get<double>());
  return c;
}

// "infeasible: REASON", or the variant's "not applicable: ..." as it stands.
std::string failure_text(const nlohmann::json& row) {
  const std::string reason = row["error"].get<std::string>();
  return row.value("not_applicable", false) ? reason : "infeasible: " + reason;
}

// The row of the JSON output. A row that did not solve keeps every key, with nulls.
nlohmann::json row_json(const CompareEntry& e) {
  if (!e.solved())
    return {{"strategy", e.strategy},
            {"not_applicable", e.outcome == RowOutcome::NotApplicable},
            {"iteration_time", nullptr},
            {"speedup", nullptr},
            {"bubble_ratio", nullptr},
            {"gap_to_bound", nullptr},
            {"peak_memory_bytes", nullptr},
            {"stage_peak_memory_bytes", nlohmann::json::array()},
            {"tokens_per_second", nullptr},
            {"solver_seconds", nullptr},
            {"legal", false},
            {"error", e.reason},
            {"limit", limit_json(e.limit)}};
  const SimResult& r = *e.sim;
  return {{"strategy", e.strategy},
          {"iteration_time", r.iteration_time},
          {"speedup", e.speedup ? nlohmann::json(*e.speedup) : nlohmann::json(nullptr)},
          {"bubble_ratio", r.bubble_ratio},
          {"gap_to_bound", r.gap_to_bound},
          {"peak_memory_bytes", r.peak_memory_bytes},
          {"stage_peak_memory_bytes", e.stage_peak_memory_bytes},
          {"tokens_per_second", r.tokens_per_second},
          {"solver_seconds", e.solver_seconds},
          {"legal", r.legal},
          {"limit", nullptr},
          {"dp", e.config.dp},
          {"cp", e.config.cp},
          {"tp", e.config.tp},
          {"recompute", recompute_name(e.config.recompute)},
          {"recompute_layers", e.plan->recompute_layers},
          {"stage_layers", e.cost->stage_layers()}};
}

std::vector<OptionSpec> compare_option_specs() {
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
  return specs;
}

// core/app's comparison request, as the explorer builds it: the same rows, reasons and speed-ups.
CompareRequest compare_request(const RunSetup& setup, const std::vector<std::string>& strategies,
                               bool images) {
  CompareRequest request;
  request.batch = setup.workload.batch;
  request.config = setup.config;
  request.seed = setup.params.seed;
  request.strategies = strategies;
  request.build_timelines = false;
  request.sim.keep_ops = images;
  request.sim.memory_timeline = images;
  request.sim.critical_path = images;
  return request;
}

std::string markdown_table(const nlohmann::json& rows) {
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
  return md;
}

void print_table(const RunSetup& setup, const std::vector<CompareEntry>& entries,
                 const nlohmann::json& rows) {
  std::printf("%s, %s on %s, p=%d d=%d t=%d\n", setup.workload.label.c_str(),
              setup.model_name.c_str(), setup.gpu_name.c_str(), setup.cost->parallel().pp,
              setup.cost->parallel().dp, setup.cost->parallel().tp);
  int w = 10;
  for (const auto& e : entries) w = std::max(w, static_cast<int>(e.strategy.size()));
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

}  // namespace

int cmd_compare(int argc, char** argv) {
  const std::vector<OptionSpec> specs = compare_option_specs();
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("compare", args.error());
  const auto to_stdout = stdout_output(*args, {"json", "markdown", "png", "svg", "pdf"});
  if (!to_stdout) return report_error("compare", to_stdout.error());
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
  if (strategies.empty()) strategies = default_compare_strategies();
  auto setup = make_setup(*args);
  if (!setup) return report_error("compare", setup.error());
  for (const auto& s : strategies) {
    auto v = parse_strategy_variant(s, setup->config);
    if (!v) return report_error("compare", Error::bad_input("--strategies: " + v.error().message));
  }

  const bool images = args->has("png") || args->has("svg") || args->has("pdf");
  auto entries = run_compare(compare_request(*setup, strategies, images), CancelToken::none(),
                             ProgressSink::none());
  if (!entries) return report_error("compare", as_option_error(entries.error()));
  nlohmann::json rows = nlohmann::json::array();
  for (const CompareEntry& e : *entries) rows.push_back(row_json(e));
  nlohmann::json j = {{"workload", setup->workload.label},
                      {"model", setup->model_name},
                      {"gpu", setup->gpu_name},
                      {"pp", setup->cost->parallel().pp},
                      {"dp", setup->cost->parallel().dp},
                      {"tp", setup->cost->parallel().tp},
                      {"rows", rows}};
  if (images) {
    std::vector<GanttEntry> drawn;
    for (const CompareEntry& e : *entries)
      if (e.solved()) drawn.push_back({e.strategy, e.plan.get(), e.sim.get()});
    if (drawn.empty())
      return report_error("compare", Error::infeasible("no strategy produced a plan to draw"));
    if (Status s = export_images(*args, "compare on " + setup->workload.label, drawn); !s)
      return report_error("compare", s.error());
  }
  if (auto dest = args->get("markdown")) {
    const std::string md = markdown_table(rows);
    if (Status s = write_text_output(*dest, md); !s) return report_error("compare", s.error());
  }
  const bool json_stdout = *to_stdout;
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, j); !s) return report_error("compare", s.error());
  }
  if (!json_stdout) print_table(*setup, *entries, rows);
  return kExitOk;
}

}  // namespace slimpack::cli
