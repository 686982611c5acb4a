#pragma once
// Calibrate from a trace: the measured forward and backward units of a mapped profiler trace
// (core/trace/trace_units.h) of a plan that was run, turned into per-layer cost samples of that
// plan's packs and fitted with the fit-costs code (core/cost/profile.h). The result is a cost
// profile whose coefficients reproduce the measured unit durations as closely as the model allows.
#include <cstdint>
#include <string>

#include "common/status.h"
#include "cost/cost_model.h"
#include "cost/profile.h"
#include "plan/plan.h"
#include "trace/trace_lanes.h"
#include "trace/trace_units.h"

namespace slimpack {

struct TraceCalibration {
  // Per-layer samples (one per measured unit: tokens and pairs per context-parallel rank) with the
  // forward and backward fits; device from the cost model, provenance names the trace and rules.
  CostProfile profile;
  std::int64_t units_used = 0;  // measured (replica, stage, pass, pack) units that became samples
  // Measured units with no pack of the plan (wrong plan, replica or pack number), on packs with
  // explicit times (the model does not price them), or whose time is not above the model's
  // coefficient-free part (communication, LM head).
  std::int64_t units_skipped = 0;
  // The refitted model against the measured units: mean and largest |relative error|.
  double mape = 0.0;
  double max_error = 0.0;
};

// `cost` is the model the plan was simulated with: its stage split, LM head, recomputation,
// context- and tensor-parallel terms are kept, and the unit times are inverted to per-layer times
// through them: unit = L_s (kappa + alpha Ntok/c + beta Apairs/c) + the rest of the model (with a
// recomputed layer's forward priced at the refitted forward coefficients). Units that run in
// several virtual chunks are summed first. Errors: no usable unit, or too few or too uniform
// samples of a pass to determine its coefficients (the message says which pass).
Expected<TraceCalibration> calibrate_from_units(const MappedTrace& units, const Plan& plan,
                                                const CostModel& cost,
                                                const std::string& provenance);

// The same from an imported trace (events kept), its lane mapping and unit rules.
Expected<TraceCalibration> calibrate_from_trace(const ImportedTrace& trace,
                                                const LaneMapping& lanes, const UnitRuleSet& rules,
                                                const Plan& plan, const CostModel& cost);

}  // namespace slimpack
