#pragma once
// "Calibrate from a run" as one call: `slimpack fit-costs --trace` and the explorer's Calibrate
// from Trace both call calibrate_run, which prices the plan as the run ran it (run_pricing: a
// schedule's own setup, whatever else is configured), fits the run's units to that cost model,
// reviews the fit (the run held against the plan, the refit error, the plan's MFU with the fitted
// coefficients) and writes the profile. The front ends only present the result, so they refuse
// the same calibrations for the same reasons and print the same figures. No Qt, no threads.
#include <memory>
#include <string>

#include "app/run_check.h"
#include "app/scenario.h"
#include "app/trace_run.h"
#include "common/cancel.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"

namespace slimpack {

// Whether a calibration may replace the cost model. Refused, with `problem` saying why, when the
// run's units are not the plan's (run_units_mismatch: a run at another scale is calibrated, that
// is what a calibration is for), when the refit is more than
// kCalibrationMaxMape off the measured units on average (a run of this plan whose unit times
// scatter more than the model explains: a first, warm-up iteration on a loaded machine), or when
// the plan priced with the fitted coefficients would run at an MFU above 100 %.
inline constexpr double kCalibrationMaxMape = 0.25;
struct CalibrationReview {
  bool acceptable = true;
  std::string problem;  // empty when acceptable
  double mfu = 0.0;     // of the plan simulated with the calibrated coefficients (0: not simulated)
  double makespan_s = 0.0;         // of that simulation
  double peak_memory_bytes = 0.0;  // of that simulation, the largest stage's
};

// The review of `calibration` of a run of `plan` priced by `cost`; `mismatch` is the verdict on
// the run's units (run_units_mismatch, "" for a run of the plan).
CalibrationReview review_calibration(const TraceCalibration& calibration, const Plan& plan,
                                     const CostModel& cost, const std::string& mismatch);

struct RunCalibrationOptions {
  // Where the profile goes (write_cost_profile: "-" is stdout); empty: not written.
  std::string profile_out;
  // Write it even when the review refuses it: the explorer keeps it as a proposal the user may
  // apply, `fit-costs --force` writes it on purpose.
  bool write_refused = false;
};

struct RunCalibration {
  TraceCalibration calibration;
  CalibrationReview review;
  RunPricing pricing;
  std::string mismatch;  // run_units_mismatch of the run held against the plan, "" when it can be
  bool written = false;  // the profile was written to RunCalibrationOptions::profile_out
  // Why the profile cannot price this plan even when acceptable: a schedule fixes its costs. The
  // text is the CLI's refusal of `--cost-profile` with a schedule; "" when it may.
  std::string not_applicable;
};

// Fits, reviews and (as `options` say) writes the profile. Errors are failures to run (a rule
// that maps nothing, a file that cannot be written); a refused calibration is a result.
Expected<RunCalibration> calibrate_run(const TraceRun& run, const TraceRunRequest& request,
                                       const Plan& plan, const RunPricing& pricing,
                                       const RunCalibrationOptions& options,
                                       const CancelToken& cancel = CancelToken::none());

}  // namespace slimpack
