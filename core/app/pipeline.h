#pragma once
// The application's pipeline as plain functions: scenario -> batch -> cost model -> solve ->
// simulate -> snapshot. `slimpack simulate` and the explorer's live view both run run_pipeline(),
// so they see the same batch, costs, plan and messages for the same inputs. No Qt and no threads
// here: the explorer's JobTracker runs it on a worker with a cancel token.
#include <memory>
#include <string>

#include "app/explorer_snapshot.h"
#include "app/scenario.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "sim/simulator.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack {

// What a solve needs, built from a configuration for one batch.
struct RunInputs {
  std::shared_ptr<const CostModel> cost;
  StrategyParams params;
};

// The cost model (weighing the batch's attention density for the automatic stage split) and the
// strategy parameters. A sample longer than an explicit context window is refused
// ("context: sample 's3' has ... tokens, more than the context window of ... tokens").
Expected<RunInputs> make_run_inputs(const ConfigSpec& config, const Batch& batch,
                                    std::uint64_t seed);

// The workload drawn and the run inputs made from it.
struct PreparedScenario {
  std::shared_ptr<const LengthPool> pool;
  Batch batch;
  std::string label;  // "preset long-sft-128k, seed 42" or the file path
  RunInputs inputs;
};

// `cached` is the pool of an earlier run whose workload has the same pool
// (WorkloadSpec::same_pool).
Expected<PreparedScenario> prepare_scenario(const WorkloadSpec& workload, const ConfigSpec& config,
                                            const std::shared_ptr<const LengthPool>& cached = {});

// The one rule for the cost model of a plan file: the plan's stages and replicas replace the
// configuration's p and d; a plan whose every pack has an explicit time is an abstract what-if and
// is simulated without a cost model (null) unless `model_requested` (the user named a model or
// GPU to price it with).
Expected<std::shared_ptr<const CostModel>> plan_cost_model(const Plan& plan,
                                                           const ConfigSpec& config,
                                                           bool model_requested);

struct PipelineRequest {
  WorkloadSpec workload;
  ConfigSpec config;
  // The previous snapshot's pool when `workload.same_pool` holds; skips reading the file again.
  std::shared_ptr<const LengthPool> cached_pool;
  // A plan opened from a file (core/app/input_file.h: load_plan_file) replaces the solver; the
  // batch then is the plan's sequences.
  std::shared_ptr<const Plan> plan;
  std::string plan_file;
  bool plan_model_requested = false;  // see plan_cost_model
  // A schedule file fixes its cost model (core/app/schedule_input.h): used as is, null for an
  // explicit-time schedule, instead of plan_cost_model's rule.
  bool plan_cost_fixed = false;
  std::shared_ptr<const CostModel> plan_cost;
  SimOptions sim;              // what the simulation keeps (ops, memory, critical path)
  bool build_timeline = true;  // the Gantt model (the explorer draws it, the CLI does not)
};

Expected<ExplorerSnapshot> run_pipeline(const PipelineRequest& request, const CancelToken& cancel,
                                        ProgressSink& progress);

}  // namespace slimpack
