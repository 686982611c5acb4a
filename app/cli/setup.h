#pragma once
// Turns the shared workload and configuration options of simulate/solve/compare/sweep into core
// values: a batch, a cost model and strategy parameters. Every bad value is reported with the
// option or file that holds it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack::cli {

struct Workload {
  Batch batch;
  std::string label;  // "preset:long-sft-128k seed 42" or the file path
};

struct RunSetup {
  Workload workload;
  std::shared_ptr<const CostModel> cost;
  std::string model_name;
  std::string gpu_name;
  std::string strategy = "slimpack";
  StrategyParams params;
};

std::vector<OptionSpec> workload_options();
std::vector<OptionSpec> config_options();

// `file` (a positional argument) takes the place of --lengths when given.
Expected<Workload> load_workload(const Args& args, const std::optional<std::string>& file = {});
// `shape` (pp, dp) replaces --pp/--dp when a plan file dictates them.
struct PlanShape {
  int pp = 0;
  int dp = 0;
};
Expected<std::shared_ptr<const CostModel>> make_cost_model(const Args& args, std::string* model_name,
                                                           std::string* gpu_name,
                                                           std::optional<PlanShape> shape = {});
Expected<StrategyParams> make_params(const Args& args);
Expected<RunSetup> make_setup(const Args& args);

}  // namespace slimpack::cli
