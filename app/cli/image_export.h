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

// In `slimpack`, which links no Qt: when the command line asks for a picture, replaces this
// process with `slimpack-pictures` (the same program with the painter: beside this executable in a
// build tree, in the modules' directory when installed; $SLIMPACK_PICTURES_PROGRAM overrides) given
// the same arguments. Returns only when no picture is asked for, or with 2 after saying on stderr
// that the program cannot be run. A no-op in `slimpack-pictures` itself.
int run_pictures_program_if_asked(int argc, char** argv);

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
