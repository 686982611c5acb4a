#pragma once
// Turns the shared workload and configuration options of simulate/solve/compare/sweep into core
// values: a batch, a cost model and strategy parameters. Every bad value is reported with the
// option or file that holds it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/pipeline.h"
#include "app/scenario.h"
#include "args.h"
#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack::cli {

struct Workload {
  Batch batch;
  std::string label;  // "preset long-sft-128k, seed 42" or the file path
};

struct RunSetup {
  WorkloadSpec workload_spec;
  Workload workload;
  ConfigSpec config;
  std::shared_ptr<const CostModel> cost;
  std::string model_name;
  std::string gpu_name;
  std::string strategy = "slimpack";
  StrategyParams params;
};

// The --help rows of the workload and configuration options, generated from the option table
// (core/app/config_options.h).
std::vector<OptionSpec> workload_options();
std::vector<OptionSpec> config_options();
// The trace options of the table (--trace-rules, --trace-lanes, ...), for the commands that read
// a run's traces.
std::vector<OptionSpec> trace_options();

// Option values as a scenario (core/app/scenario.h); errors name the option. `file` (a positional
// argument) takes the place of --lengths when given.
Expected<WorkloadSpec> workload_spec(const Args& args, const std::optional<std::string>& file = {});
// The configuration records the options given (ConfigSpec::given_options), and a --costs field
// one of them replaces is said once per run on stderr (core/app/cost_file_rule.h):
//   "slimpack: --tp 2 overrides parallel.tp = 1 of samples/models/tiny-8x256.json"
// A contradiction is the error. `shown`, when given, spells the values (a sweep's whole list);
// `varied` are the options a sweep or search varies (reported whenever the file sets them).
Expected<ConfigSpec> config_spec(const Args& args, const Args* shown = nullptr,
                                 const std::vector<std::string>& varied = {});
Expected<TraceSpec> trace_spec(const Args& args);
// What config_spec says about the --costs file, for a configuration made otherwise (search).
Status report_cost_file_overrides(const ConfigSpec& config, const Args& shown,
                                  const std::vector<std::string>& varied);

Expected<Workload> load_workload(const Args& args, const std::optional<std::string>& file = {});
// The scenario the options describe, prepared by core/app's prepare_scenario (the explorer's
// path too); errors name the option.
Expected<RunSetup> make_setup(const Args& args);

// The model as a run's title and JSON name it: the preset's name, or a config.json's model name.
std::string model_label(const ConfigSpec& config, const CostModel& cost);

// The scenario functions name fields ("memory cap: ..."); the CLI names the option that set them
// ("--memory-cap: ..."), as the option table (core/app/config_options.h) maps them. Other errors
// pass unchanged.
Error as_option_error(const Error& e);

}  // namespace slimpack::cli
