#pragma once
// Sweeps: one strategy re-solved and simulated once per value of a parameter. `slimpack sweep`
// (any sweepable option) and the explorer's slice-size chart both make their points with
// sweep_point(), so a point's numbers, its failure policy and its message are the same in both:
// a value with no plan that fits is a point with its reason (ok = false); a cancellation, bad
// parameters or a bug fail the sweep.
#include <string>
#include <vector>

#include "app/pipeline.h"
#include "app/scenario.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"

namespace slimpack {

struct SweepPoint {
  Tokens slice_size = 0;  // S at this point (the configuration's; 0 = the strategy's choice)
  double iteration_time = 0.0;
  double bubble_ratio = 0.0;
  bool ok = false;    // solved; false when this value was infeasible
  std::string error;  // why not (the solver's reason, without a "strategy NAME: " prefix)
  std::optional<InfeasibleDetail> limit;  // the limit that binds, when one does
  std::string value;                      // the swept value as given ("2048")
  double tokens_per_second = 0.0;
  double peak_memory_bytes = 0.0;
  double solver_seconds = 0.0;
  bool legal = false;
};

// Solves and simulates `strategy` on the batch with the inputs (metrics only: no ops, memory
// timeline or critical path are kept).
Expected<SweepPoint> sweep_point(const std::string& value, const std::string& strategy,
                                 const Batch& batch, const RunInputs& inputs,
                                 const CancelToken& cancel = CancelToken::none());

// The strategy a slice-size sweep runs: the configured one when it slices, else the default
// slicing strategy (a strategy that ignores S would draw a flat line).
std::string slice_sweep_strategy(const std::string& configured);

// Powers of two from 512 up to the longest sequence (at least one value), the candidate S values
// the chart offers.
std::vector<Tokens> default_slice_sizes(Tokens longest);

struct SweepRequest {
  Batch batch;
  ConfigSpec config;
  std::uint64_t seed = 1;
  std::vector<Tokens> slice_sizes;
};

// The slice-size sweep: one point per S, in order, with slice_sweep_strategy(config.strategy).
Expected<std::vector<SweepPoint>> run_sweep(const SweepRequest& request, const CancelToken& cancel,
                                            ProgressSink& progress);

}  // namespace slimpack
