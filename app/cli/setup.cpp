#include "setup.h"

#include <cstdio>
#include <set>
#include <utility>

#include "app/config_options.h"
#include "app/cost_file_rule.h"

namespace slimpack::cli {

namespace {

// The --help rows of one section of the option table (core/app/config_options.h).
std::vector<OptionSpec> specs_of(OptionSection section) {
  std::vector<OptionSpec> specs;
  for (const ConfigOption& o : options_in(section))
    specs.push_back({std::string(o.flag), std::string(o.value_name), option_help(o)});
  return specs;
}

// Stores every option of the section that the command line gives, checked by the table; errors
// name the option ("--pp: must be at least 1, got 0").
Status apply_options(const Args& args, OptionSection section, ScenarioSpec& scenario) {
  for (const ConfigOption& o : options_in(section)) {
    const std::string flag(o.flag);
    if (!args.has(flag)) continue;
    auto value = parse_option_text(o, args.get_or(flag, ""), cli_name(o));
    if (!value) return value.error();
    if (Status s = set_option(o, scenario, *value, cli_name(o)); !s) return s;
  }
  return {};
}

}  // namespace

// Each override once per run, however many configurations a command makes (sweep points).
Status report_cost_file_overrides(const ConfigSpec& config, const Args& shown,
                                  const std::vector<std::string>& varied) {
  static std::set<std::string> said;
  auto overrides = cost_file_overrides(config, varied);
  if (!overrides) return overrides.error();
  for (CostFileOverride& o : *overrides) {
    if (auto text = shown.get(o.flag)) o.value = *text;
    if (!said.insert(o.flag + " " + o.field + " " + o.file).second) continue;
    std::fprintf(stderr, "slimpack: %s\n", override_line(o).c_str());
  }
  return {};
}

std::vector<OptionSpec> workload_options() {
  return specs_of(OptionSection::Workload);
}
std::vector<OptionSpec> config_options() {
  return specs_of(OptionSection::Config);
}
std::vector<OptionSpec> trace_options() {
  return specs_of(OptionSection::Traces);
}

std::string model_label(const ConfigSpec& config, const CostModel& cost) {
  return config.hf_config_file.empty() ? config.model : cost.model().name;
}

Error as_option_error(const Error& e) {
  return name_option_in(e, cli_name);
}

Expected<WorkloadSpec> workload_spec(const Args& args, const std::optional<std::string>& file) {
  const std::optional<std::string> path = file ? file : args.get("lengths");
  if (path && args.has("preset"))
    return Error::bad_input("--lengths and --preset are exclusive: give one workload");
  if (!path && args.has("column"))
    return Error::bad_input("--column applies to --lengths files only");
  ScenarioSpec s;
  if (Status st = apply_options(args, OptionSection::Workload, s); !st) return st.error();
  WorkloadSpec& w = s.workload;
  if (path) w.file = *path;
  const Tokens budget = args.has("batch-tokens") ? w.batch_tokens : 0;
  if (budget > 0 && w.batch_count > 0)
    return Error::bad_input("--batch-tokens and --batch-count are exclusive");
  // Presets default to kDefaultBatchTokens; files are the batch unless a size is given.
  w.batch_tokens =
      budget > 0 ? budget : (w.file.empty() && w.batch_count == 0 ? kDefaultBatchTokens : 0);
  return w;
}

Expected<ConfigSpec> config_spec(const Args& args, const Args* shown,
                                 const std::vector<std::string>& varied) {
  ScenarioSpec s;
  s.config.strategy = default_strategy();
  if (Status st = apply_options(args, OptionSection::Config, s); !st) return st.error();
  if (args.has("hf-config") && args.has("model"))
    return Error::bad_input("--hf-config and --model are exclusive: give one model");
  if (args.has("hf-config") && s.config.hf_config_file.empty())
    return Error::bad_input("--hf-config: give the config.json's path");
  for (const ConfigOption& o : options_in(OptionSection::Config))
    if (args.has(std::string(o.flag))) s.config.given_options.emplace_back(o.flag);
  if (Status st = report_cost_file_overrides(s.config, shown ? *shown : args, varied); !st)
    return st.error();
  return s.config;
}

Expected<TraceSpec> trace_spec(const Args& args) {
  ScenarioSpec s;
  if (Status st = apply_options(args, OptionSection::Traces, s); !st) return st.error();
  return s.traces;
}

Expected<Workload> load_workload(const Args& args, const std::optional<std::string>& file) {
  auto spec = workload_spec(args, file);
  if (!spec) return spec.error();
  auto pool = load_pool(*spec);
  if (!pool) return as_option_error(pool.error());
  auto batch = make_batch(**pool, *spec);
  if (!batch) return as_option_error(batch.error());
  return Workload{std::move(*batch), workload_label(*spec)};
}

Expected<RunSetup> make_setup(const Args& args) {
  RunSetup s;
  auto workload = workload_spec(args);
  if (!workload) return workload.error();
  s.workload_spec = *workload;
  auto config = config_spec(args);
  if (!config) return config.error();
  s.config = *config;
  auto prepared = prepare_scenario(s.workload_spec, s.config);
  if (!prepared) return as_option_error(prepared.error());
  s.workload = Workload{std::move(prepared->batch), prepared->label};
  s.cost = prepared->inputs.cost;
  s.params = prepared->inputs.params;
  s.model_name = model_label(s.config, *s.cost);
  s.gpu_name = s.config.gpu;
  s.strategy = s.config.strategy;
  return s;
}

}  // namespace slimpack::cli
