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
  // Null when the strategy failed. Shared and immutable: the compare view, its table and the
  // exporter all hold the entries, and a deep copy of a large SimResult (every op, the memory
  // timeline) costs the GUI thread milliseconds.
  std::shared_ptr<const Plan> plan;
  std::shared_ptr<const SimResult> sim;
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
