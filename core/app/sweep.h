#pragma once
// Slice-size sweep: re-solves and simulates one batch for several slice sizes S. Qt-free; the
// JobTracker runs it on a worker and the sweep chart plots (S, iteration time, bubble ratio).
#include <vector>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "jobs/explorer_inputs.h"

namespace slimpack::ui {

struct SweepPoint {
  Tokens slice_size = 0;
  double iteration_time = 0.0;
  double bubble_ratio = 0.0;
  bool ok = false;  // false when this S was infeasible; `error` says why
  std::string error;
};

struct SweepRequest {
  Batch batch;
  ConfigSpec config;
  std::uint64_t seed = 1;
  std::vector<Tokens> slice_sizes;
};

// Powers of two from 512 up to the longest sequence (at least one value), the candidate S values
// the chart offers.
std::vector<Tokens> default_slice_sizes(Tokens longest);

// One point per slice size, in order. A failing S is a point with ok = false, not an error; the
// result is an error only for a bad configuration or cancellation.
Expected<std::vector<SweepPoint>> run_sweep(const SweepRequest& request, const CancelToken& cancel,
                                            ProgressSink& progress);

}  // namespace slimpack::ui
