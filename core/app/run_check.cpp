#include "app/run_check.h"

#include "app/run_layout.h"
#include "app/schedule_input.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

std::string setup_words(const CostModel& cost) {
  return cost.model().name + " on " + cost.gpu().name + ", tp " +
         std::to_string(cost.parallel().tp);
}

bool same_pass(const PassCoeffs& a, const PassCoeffs& b) {
  return a.kappa == b.kappa && a.alpha == b.alpha && a.beta == b.beta;
}

}  // namespace

Expected<RunPricing> run_pricing(const Plan& plan, const std::string& plan_file,
                                 const ConfigSpec& config,
                                 const std::shared_ptr<const CostModel>& simulated) {
  RunPricing out;
  if (!plan_file.empty() && looks_like_schedule_file(plan_file)) {
    auto schedule = load_schedule_file(plan_file);
    if (!schedule) return schedule.error();
    if (!schedule->cost)
      return Error::bad_input(plan_file +
                              ": $.setup.costs: null (explicit times): the run has no cost model "
                              "to calibrate or price it by");
    out.cost = schedule->cost;
    out.by_schedule = true;
    out.config = schedule->config;
    out.label = "the schedule's setup (" + setup_words(*out.cost) + ")";
    return out;
  }
  auto cost = trace_cost_model(plan, config, simulated);
  if (!cost) return cost.error();
  out.cost = *cost;
  out.config = config;
  out.label = "the configuration (" + setup_words(*out.cost) + ")";
  return out;
}

bool same_pricing(const CostModel& a, const CostModel& b) {
  return a.model().name == b.model().name && a.gpu().name == b.gpu().name &&
         a.parallel().tp == b.parallel().tp && a.parallel().cp == b.parallel().cp &&
         a.stage_layers() == b.stage_layers() &&
         same_pass(a.coeffs().forward, b.coeffs().forward) &&
         same_pass(a.coeffs().backward, b.coeffs().backward);
}

Expected<TraceRunCheck> check_run(const TraceRun& run, const TraceRunRequest& request,
                                  const Plan& plan, const RunPricing& pricing, const SimResult& sim,
                                  const CostModel* sim_cost) {
  if (sim_cost != nullptr && same_pricing(*sim_cost, *pricing.cost)) {
    auto out = check_trace_run(run, request, plan, sim, sim_cost);
    if (out) out->priced_by = pricing.label;
    return out;
  }
  SimOptions options;
  options.memory_timeline = false;
  auto own = simulate(plan, pricing.cost.get(), options);
  if (!own) return own.error();
  auto out = check_trace_run(run, request, plan, *own, pricing.cost.get());
  if (out) out->priced_by = pricing.label;
  return out;
}

}  // namespace slimpack
