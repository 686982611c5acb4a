// slimpack export torch-pp PLAN --out FILE.csv: a plan in PyTorch's pipeline schedule CSV
// (core/app/torch_pp_export.h does the work; this presents it).
#include <cstdio>

#include "app/input_file.h"
#include "app/pipeline.h"
#include "app/schedule_input.h"
#include "app/torch_pp_export.h"
#include "args.h"
#include "commands.h"
#include "output.h"
#include "schedule_cli.h"
#include "setup.h"

namespace slimpack::cli {
namespace {

constexpr const char* kExportUsage =
    "usage: slimpack export torch-pp PLAN_OR_SCHEDULE --out FILE.csv "
    "[--format compute_only|compute_comms] [--json FILE]\n\n"
    "Writes a plan in another runtime's schedule format.\n"
    "  torch-pp  PyTorch's pipeline schedule CSV (torch.distributed.pipelining, "
    "_PipelineScheduleRuntime._load_csv;\n"
    "            torchtitan's parallelism.pipeline_parallel_schedule_csv)\n\n"
    "Run 'slimpack export torch-pp --help' for its options.\n";

std::vector<OptionSpec> torch_pp_specs() {
  std::vector<OptionSpec> specs = {
      {"out", "FILE", "write the CSV here ('-' = stdout): one row per pipeline rank"},
      {"format", "compute_only|compute_comms",
       "compute_only (default): F and B actions, torch adds the communication when it loads "
       "the file; compute_comms: the actions torch's own lowering makes of it (UNSHARD, SEND_F, "
       "RECV_F, SEND_B, RECV_B, REDUCE_GRAD, WAIT_SEND_*), to edit by hand"},
      {"json", "FILE",
       "write {format, stages, replicas, microbatches, backward_of, rows, padding: {pack_tokens, "
       "pad_tokens, padding_fraction, makespan_s, padded_makespan_s, ...}, notes} ('-' = "
       "stdout)"}};
  // A plan file is priced with the model, GPU and parallel options it was solved with (as for
  // simulate --plan); a schedule fixes them.
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"help", "", "show this help"});
  return specs;
}

// The plan and the cost model that prices its padding, as `simulate --plan` opens them.
struct Opened {
  std::shared_ptr<const Plan> plan;
  std::shared_ptr<const CostModel> cost;
};

Expected<Opened> open_plan(const Args& args, const std::string& path) {
  auto opened = open_plan_file(path);
  if (!opened) return opened.error();
  auto config = config_spec(args);
  if (!config) return config.error();
  Opened out;
  out.plan = opened->plan;
  if (const auto& schedule = opened->schedule) {
    if (Status s = check_schedule_options(given_config_options(args), *config, schedule->config);
        !s)
      return s.error();
    out.cost = schedule->cost;
    return out;
  }
  if (Status s = check_plan_options(config->given_options, *config, *out.plan, path); !s)
    return s.error();
  auto cost = plan_cost_model(*out.plan, *config, args.has("model") || args.has("gpu"));
  if (!cost) return as_option_error(cost.error());
  out.cost = *cost;
  return out;
}

int export_torch_pp_command(int argc, char** argv) {
  const auto specs = torch_pp_specs();
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("export", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help(
            "slimpack export torch-pp PLAN_OR_SCHEDULE --out FILE.csv [--format FORMAT] [--json "
            "FILE]",
            "Writes the plan as PyTorch's pipeline schedule CSV, for plans torch's runtime can "
            "run: equal forward and backward pack counts, each backward pack the backward of one "
            "forward pack, no sequence across packs, one pack count in every replica, schedule "
            "1f1b or gpipe. Forward pack k is micro-batch k, stage s runs on pipeline rank s, and "
            "the replicas are data-parallel copies of this one pipeline. Every micro-batch is "
            "padded to the largest pack's tokens (torch needs one shape): the padding and its "
            "simulated cost are said on stderr and in --json. Any other plan is refused (exit 2) "
            "with the first reason and the nearest plan that exports.",
            specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().size() != 1)
    return report_error("export", Error::bad_input("expected one PLAN_OR_SCHEDULE file"));
  const auto out_path = args->get("out");
  if (!out_path) return report_error("export", Error::bad_input("--out FILE.csv is required"));
  const auto to_stdout = stdout_output(*args, {"out", "json"});
  if (!to_stdout) return report_error("export", to_stdout.error());
  TorchPPFormat format = TorchPPFormat::ComputeOnly;
  if (!parse_torch_pp_format(args->get_or("format", "compute_only"), format))
    return report_error("export", Error::bad_input("--format: expected compute_only or "
                                                   "compute_comms, got '" +
                                                   args->get_or("format", "") + "'"));
  const std::string& path = args->positional().front();
  auto opened = open_plan(*args, path);
  if (!opened) return report_error("export", opened.error());
  auto exported = export_torch_pp(*opened->plan, opened->cost.get(), format);
  if (!exported) return report_error("export", exported.error().with_context(path));
  if (Status s = write_text_output(*out_path, exported->csv); !s)
    return report_error("export", s.error());
  if (auto dest = args->get("json")) {
    nlohmann::json j = torch_pp_export_json(*exported);
    j["plan"] = path;
    j["out"] = *out_path;
    if (Status s = write_json_output(*dest, j); !s) return report_error("export", s.error());
  }
  std::fputs(torch_pp_export_text(*exported, *out_path).c_str(), stderr);
  return kExitOk;
}

}  // namespace

int cmd_export(int argc, char** argv) {
  if (argc < 3 || std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h") {
    std::fputs(kExportUsage, argc < 3 ? stderr : stdout);
    return argc < 3 ? kExitBadInput : kExitOk;
  }
  const std::string target = argv[2];
  if (target == "torch-pp") return export_torch_pp_command(argc, argv);
  return report_error("export",
                      Error::bad_input("unknown export target '" + target + "' (known: torch-pp)"));
}

}  // namespace slimpack::cli
