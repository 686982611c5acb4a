#pragma once
// Several strategies on one batch and configuration: the compare view's input. Qt-free.
#include <memory>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "jobs/explorer_inputs.h"
#include "render/gantt_model.h"
#include "sim/sim_result.h"

namespace slimpack::ui {

struct CompareEntry {
  std::string strategy;
  std::shared_ptr<const Plan> plan;  // null when the strategy failed
  SimResult sim;
  std::shared_ptr<const GanttModel> gantt;
  std::string error;
};

struct CompareRequest {
  Batch batch;
  ConfigSpec config;
  std::uint64_t seed = 1;
  std::vector<std::string> strategies;
};

Expected<std::vector<CompareEntry>> run_compare(const CompareRequest& request,
                                                const CancelToken& cancel, ProgressSink& progress);

}  // namespace slimpack::ui
