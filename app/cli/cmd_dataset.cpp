// slimpack dataset: each strategy over every batch of the workload (core/app/dataset.h): iteration
// time, peak memory and solver time as median / p95 / max, the worst batch and how simulate shows
// it.
#include <cstdio>

#include "app/dataset.h"
#include "app/dataset_json.h"
#include "app/strategy_variant.h"
#include "args.h"
#include "commands.h"
#include "common/format.h"
#include "output.h"
#include "setup.h"
#include "stderr_progress.h"
#include "thread_pool.h"

namespace slimpack::cli {
namespace {

std::vector<OptionSpec> dataset_specs() {
  std::vector<OptionSpec> specs = workload_options();
  for (auto& s : config_options()) specs.push_back(s);
  for (auto& s : specs)
    if (s.name == "strategy") {
      s.value = "LIST";
      s.help =
          "comma-separated strategies or variants NAME:key=value, the first the baseline of the "
          "speed-ups (default fixed,balanced,sliced,slimpack)";
    }
  specs.push_back({"batches", "K",
                   "the first K batches of a length file cut by the batch size (default all of "
                   "them), or K seeded batches of a preset (default 16)"});
  specs.push_back({"threads", "N", "worker threads (default: one per core)"});
  specs.push_back({"json", "FILE", "write the result as JSON ('-' = stdout)"});
  specs.push_back({"quiet", "", "no progress on stderr"});
  specs.push_back({"help", "", "show this help"});
  return specs;
}

// "7 batches of 65536 tokens, the file in order (all 7)" / "16 seeded batches (seeds 42..57)".
std::string batches_line(const DatasetResult& r) {
  const WorkloadSpec& w = r.workload;
  const std::size_t k = r.batches.size();
  std::string size = w.batch_tokens > 0  ? " of " + std::to_string(w.batch_tokens) + " tokens"
                     : w.batch_count > 0 ? " of " + std::to_string(w.batch_count) + " sequences"
                                         : "";
  if (!r.file_batches)
    return std::to_string(k) + " seeded batches" + size + " (seeds " +
           std::to_string(r.batches.front().seed) + ".." + std::to_string(r.batches.back().seed) +
           ")";
  if (size.empty()) return "the whole file as one batch";
  return std::to_string(k) + (k == 1 ? " batch" : " batches") + size + ", the file cut in order (" +
         (static_cast<int>(k) == r.available ? "all " : "the first " + std::to_string(k) + " of ") +
         std::to_string(r.available) + ")";
}

std::string spread_text(const std::optional<Spread>& s, std::string (*fmt)(double)) {
  if (!s) return "-";
  return fmt(s->median) + " / " + fmt(s->p95) + " / " + fmt(s->max);
}

std::string time4(double t) {
  return format_time_digits(t, 4);
}
std::string time1(double t) {
  return format_time(t);
}

// The option that shows a batch, or what does when none is needed (a whole file is its one batch).
std::string worst_option(const DatasetResult& r, int batch) {
  const std::string option = dataset_batch_option(r, batch);
  return option.empty() ? "the same options (the whole file is the batch)" : option;
}

void print_report(const RunSetup& setup, const DatasetResult& r) {
  std::printf("%s: %s; %s on %s, p=%d d=%d t=%d\n", workload_label(r.workload).c_str(),
              batches_line(r).c_str(), setup.model_name.c_str(), setup.gpu_name.c_str(),
              setup.cost->parallel().pp, setup.cost->parallel().dp, setup.cost->parallel().tp);
  int w = 10;
  for (const auto& s : r.strategies) w = std::max(w, static_cast<int>(s.strategy.size()));
  std::printf("%-*s  %-34s %9s  %-32s %-28s %s\n", w, "strategy", "iteration median / p95 / max",
              "speed-up", "peak memory median / p95 / max", "solver median / p95 / max", "worst");
  for (const auto& s : r.strategies) {
    const std::string speedup = s.speedup ? format_ratio(*s.speedup) : "-";
    const std::string worst = s.worst_batch >= 0 ? dataset_batch_name(r, s.worst_batch) : "-";
    std::printf("%-*s  %-34s %9s  %-32s %-28s %s\n", w, s.strategy.c_str(),
                spread_text(s.iteration_s, time4).c_str(), speedup.c_str(),
                spread_text(s.peak_memory_bytes, format_bytes).c_str(),
                spread_text(s.solver_s, time1).c_str(), worst.c_str());
  }
  for (const auto& s : r.strategies) {
    if (s.infeasible > 0)
      std::printf("%s: %d of %zu batches not solved; first, %s: %s\n", s.strategy.c_str(),
                  s.infeasible, r.batches.size(), dataset_batch_name(r, s.first_infeasible).c_str(),
                  s.first_reason.c_str());
    if (!s.solver_s) continue;
    // Planning online, one batch ahead, needs a solve no longer than an iteration.
    const bool ahead = s.solver_s->p95 < s.iteration_s->median;
    std::printf("%s: solver p95 is %s of the median iteration: %s; worst batch: simulate %s\n",
                s.strategy.c_str(), format_percent(s.solver_s->p95 / s.iteration_s->median).c_str(),
                ahead ? "it can plan one batch ahead online" : "too slow to plan online",
                worst_option(r, s.worst_batch).c_str());
  }
}

// The dataset's own settings name their option; the rest as the option table names them.
Error dataset_option_error(const Error& e) {
  if (e.field == "batches") return Error{e.kind, "--batches: " + e.field_reason};
  return as_option_error(e);
}

}  // namespace

int cmd_dataset(int argc, char** argv) {
  const std::vector<OptionSpec> specs = dataset_specs();
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("dataset", args.error());
  if (args->has("help")) {
    std::fputs(format_help("slimpack dataset [--lengths FILE | --preset NAME] [--strategy LIST] "
                           "[--batches K] [options]",
                           "Runs each strategy on every batch of the workload (a length file cut "
                           "into consecutive batches of the batch size, or K seeded batches of a "
                           "preset) and prints iteration time, peak memory and solver time as "
                           "median / p95 / max over the batches, the speed-up of each median "
                           "over the first strategy's and the worst batch, which simulate "
                           "--batch-index N (a file) or --seed N (a preset) shows.",
                           specs)
                   .c_str(),
               stdout);
    return 0;
  }
  if (!args->positional().empty())
    return report_error("dataset",
                        Error::bad_input("unexpected argument '" + args->positional()[0] + "'"));
  const auto to_stdout = stdout_output(*args, {"json"});
  if (!to_stdout) return report_error("dataset", to_stdout.error());
  DatasetRequest request;
  request.strategies = args->get_list("strategy");
  if (request.strategies.empty()) request.strategies = default_compare_strategies();
  const Args base_args = args->without("strategy");
  auto setup = make_setup(base_args);
  if (!setup) return report_error("dataset", setup.error());
  for (const auto& s : request.strategies)
    if (auto v = parse_strategy_variant(s, setup->config); !v)
      return report_error("dataset", Error::bad_input("--strategy: " + v.error().message));
  request.workload = setup->workload_spec;
  request.config = setup->config;
  auto batches = args->get_int("batches", 0);
  if (!batches) return report_error("dataset", batches.error());
  if (args->has("batches") && *batches < 1)
    return report_error("dataset", Error::bad_input("--batches: must be at least 1, got " +
                                                    std::to_string(*batches)));
  request.batches = static_cast<int>(*batches);
  auto threads = args->get_int("threads", 0);
  if (!threads) return report_error("dataset", threads.error());
  if (*threads < 0)
    return report_error("dataset", Error::bad_input("--threads: must not be negative"));

  ThreadPool pool(static_cast<int>(*threads));
  auto result = [&] {
    // Gone (its line cleared) before anything is printed.
    StderrProgress progress(args->has("quiet") || *to_stdout, true);
    return run_dataset(request, pool, CancelToken::none(), progress);
  }();
  if (!result) return report_error("dataset", dataset_option_error(result.error()));
  if (auto dest = args->get("json")) {
    const nlohmann::json header = {{"workload", workload_label(request.workload)},
                                   {"model", setup->model_name},
                                   {"gpu", setup->gpu_name},
                                   {"pp", setup->cost->parallel().pp},
                                   {"dp", setup->cost->parallel().dp},
                                   {"tp", setup->cost->parallel().tp}};
    if (Status s = write_json_output(*dest, dataset_json(*result, header)); !s)
      return report_error("dataset", s.error());
  }
  if (!*to_stdout) print_report(*setup, *result);
  return kExitOk;
}

}  // namespace slimpack::cli
