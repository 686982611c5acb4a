#pragma once
// "Check a run" as one call, and the pricing every trace feature shares: a run of a schedule is
// priced by the schedule's own setup, in `slimpack simulate --check-trace`, `slimpack fit-costs
// --trace` and the explorer alike, whatever model the explorer's Configuration panel names.
// check_run returns the per-unit comparison with its verdict (TraceRunCheck::mismatch), which the
// front ends only format (core/app/trace_report.h, the explorer's measured vs simulated). No Qt,
// no threads.
#include <memory>
#include <string>

#include "app/scenario.h"
#include "app/trace_run.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

// The cost model that prices a run of a plan, and what it came from.
struct RunPricing {
  std::shared_ptr<const CostModel> cost;  // never null (a calibration needs a model)
  // The plan file is a schedule: its setup fixed the model, GPU and parallelism, so a cost profile
  // cannot replace them (`--cost-profile contradicts the schedule's setup`).
  bool by_schedule = false;
  // "the schedule's setup (tiny-8x256 on cpu-core-fp64-flops, tp 1)" or "the configuration
  // (Llama-3-8B on H100, tp 8)": both front ends print it beside the figures.
  std::string label;
  ConfigSpec config;  // the schedule's setup as a configuration, or the configuration given
};

// The pricing of a run of `plan`, read from `plan_file` ("" for a solved workload): when the file
// is a schedule, its own setup and cost model, whatever `config` and `simulated` say; otherwise
// trace_cost_model(plan, config, simulated). The explorer passes its snapshot (whose configuration
// may name another model than the schedule's: a tiny model the Configuration panel does not know),
// the CLI the options it was given (checked against a schedule first: check_schedule_options).
Expected<RunPricing> run_pricing(const Plan& plan, const std::string& plan_file,
                                 const ConfigSpec& config,
                                 const std::shared_ptr<const CostModel>& simulated = nullptr);

// Whether two cost models price alike: model, GPU, tensor and context parallelism, coefficients.
bool same_pricing(const CostModel& a, const CostModel& b);

// The run held against `plan` as `pricing` prices it: against `sim` when `sim_cost` (the model
// `sim` was simulated with) prices alike, else against the plan simulated with pricing.cost (the
// explorer's Configuration panel changed after a schedule was opened). TraceRunCheck::priced_by
// says what priced it.
Expected<TraceRunCheck> check_run(const TraceRun& run, const TraceRunRequest& request,
                                  const Plan& plan, const RunPricing& pricing, const SimResult& sim,
                                  const CostModel* sim_cost);

}  // namespace slimpack
