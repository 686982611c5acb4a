#pragma once
// The CLI's side of executable schedules (docs/file-formats-schedule.md): the --schedule-out
// option of solve and simulate, and the configuration flags a user named (to refuse those that
// contradict a schedule's setup).
#include <string>
#include <vector>

#include "args.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"

namespace slimpack::cli {

OptionSpec schedule_out_option();

// Builds the plan's schedule priced by `cost` (null for explicit times) and writes it ('-' =
// stdout). A plan the format cannot express is refused with a message naming the part.
Status write_schedule_output(const std::string& destination, const Plan& plan,
                             const CostModel* cost);

// The configuration options present on the command line, as their flags ("tp", "model").
std::vector<std::string> given_config_options(const Args& args);

}  // namespace slimpack::cli
