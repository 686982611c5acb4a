#pragma once
// --png / --svg / --pdf export of the Gantt through the shared QtGui painter (ui/painter).
#include <string>
#include <vector>

#include "args.h"
#include "common/status.h"
#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack::cli {

std::vector<OptionSpec> image_options();

struct GanttEntry {
  std::string label;
  const Plan* plan = nullptr;
  const SimResult* result = nullptr;
};

// Writes every image the options ask for. One entry draws one Gantt; several draw a comparison on a
// shared time axis.
Status export_images(const Args& args, const std::string& title,
                     const std::vector<GanttEntry>& entries);

}  // namespace slimpack::cli
