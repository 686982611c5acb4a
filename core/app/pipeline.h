#pragma once
// The explorer's pipeline as a plain core-style function: workload -> batch -> solve -> simulate.
// No Qt and no threads here: the JobTracker runs it on a worker with a cancel token.
#include <memory>
#include <string>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "jobs/explorer_snapshot.h"

namespace slimpack::ui {

struct PipelineRequest {
  WorkloadSpec workload;
  ConfigSpec config;
  // The previous snapshot's pool when `workload.same_pool` holds; skips reading the file again.
  std::shared_ptr<const LengthPool> cached_pool;
  // A plan opened from a file replaces the solver (the workload then comes from the plan).
  std::shared_ptr<const Plan> plan;
  std::string plan_file;
};

// load_pool, make_batch, make_cost_model and make_strategy_params come from core/io/scenario.h.
Expected<ExplorerSnapshot> run_pipeline(const PipelineRequest& request, const CancelToken& cancel,
                                        ProgressSink& progress);

}  // namespace slimpack::ui
