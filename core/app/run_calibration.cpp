#include "app/run_calibration.h"

#include <cstdio>

#include "app/schedule_input.h"
#include "cost/profile.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * v);
  return buf;
}

// The plan simulated as cheaply as a figure needs: no ops, no timeline, no critical path.
Expected<SimResult> simulate_figures(const Plan& plan, const CostModel& cost) {
  SimOptions options;
  options.keep_ops = false;
  options.memory_timeline = false;
  options.critical_path = false;
  return simulate(plan, &cost, options);
}

}  // namespace

CalibrationReview review_calibration(const TraceCalibration& calibration, const Plan& plan,
                                     const CostModel& cost, const std::string& mismatch) {
  CalibrationReview review;
  if (!mismatch.empty()) {
    review.acceptable = false;
    review.problem = "the trace is not a run of this plan: " + mismatch;
    return review;
  }
  if (calibration.mape > kCalibrationMaxMape) {
    // The run is this plan's (every unit found, at its scale), so the error is in its times: a
    // first iteration pays allocation and kernel warm-up, a loaded machine stalls some units.
    review.acceptable = false;
    review.problem = "the refitted model is " + percent(calibration.mape) +
                     " off the measured units on average (at most " + percent(kCalibrationMaxMape) +
                     " is applied): the unit times scatter more than the cost model explains "
                     "(a warm-up iteration or a loaded machine: slimpack-run traces the last of "
                     "its --iterations, so trace a run of 2 or more on an idle machine)";
    return review;
  }
  CostModel calibrated = cost;
  calibrated.set_coeffs(coeffs_from_profile(calibration.profile, cost.coeffs()));
  auto sim = simulate_figures(plan, calibrated);
  if (!sim) {
    review.acceptable = false;
    review.problem = sim.error().message;
    return review;
  }
  review.mfu = sim->mfu;
  review.makespan_s = sim->makespan;
  review.peak_memory_bytes = sim->peak_memory_bytes;
  if (sim->mfu > 1.0) {
    review.acceptable = false;
    review.problem = "with it the plan would run at an MFU of " + percent(sim->mfu) +
                     ", above what the GPUs can do: the trace's times or scale do not match "
                     "this plan";
  }
  return review;
}

Expected<RunCalibration> calibrate_run(const TraceRun& run, const TraceRunRequest& request,
                                       const Plan& plan, const RunPricing& pricing,
                                       const RunCalibrationOptions& options,
                                       const CancelToken& cancel) {
  if (!pricing.cost) return Error::bad_input("no cost model to calibrate");
  RunCalibration out;
  out.pricing = pricing;
  auto cal = calibrate_trace_run(run, request, plan, *pricing.cost);
  if (!cal) return cal.error();
  out.calibration = std::move(*cal);
  if (cancel.cancelled()) return Error::cancelled();
  // The run held against the plan as priced: the verdict the check shows decides here too.
  SimOptions with_ops;
  with_ops.memory_timeline = false;
  with_ops.critical_path = false;
  auto sim = simulate(plan, pricing.cost.get(), with_ops);
  if (!sim) return sim.error();
  auto check = check_trace_run(run, request, plan, *sim, pricing.cost.get());
  if (!check) return check.error();
  // Only the units decide: a run at another scale than the plan is priced is what a calibration
  // fits (the MFU check below refuses a scale no GPU can reach).
  out.mismatch = run_units_mismatch(check->check);
  if (cancel.cancelled()) return Error::cancelled();
  out.review = review_calibration(out.calibration, plan, *pricing.cost, out.mismatch);
  if (pricing.by_schedule) {
    // The CLI's own words for a profile given with a schedule.
    ConfigSpec with_profile = pricing.config;
    with_profile.cost_profile_file = options.profile_out.empty() ? "PROFILE" : options.profile_out;
    if (Status s = check_schedule_options({"cost-profile"}, with_profile, pricing.config); !s)
      out.not_applicable = s.error().message;
  }
  if (!options.profile_out.empty() && (out.review.acceptable || options.write_refused)) {
    if (Status s = write_cost_profile(options.profile_out, out.calibration.profile); !s)
      return s.error();
    out.written = true;
  }
  return out;
}

}  // namespace slimpack
