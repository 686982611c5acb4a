#include "schedule_cli.h"

#include "app/config_options.h"
#include "output.h"
#include "schedule/schedule.h"

namespace slimpack::cli {

OptionSpec schedule_out_option() {
  return {"schedule-out", "FILE",
          "write the executable schedule (format slimpack-schedule: atoms and per-rank actions, "
          "what slimpack-run executes; '-' = stdout)"};
}

Status write_schedule_output(const std::string& destination, const Plan& plan,
                             const CostModel* cost) {
  auto schedule = make_schedule(plan, cost);
  if (!schedule) return Error{schedule.error()}.with_context("--schedule-out");
  return write_text_output(destination, schedule_to_string(*schedule));
}

std::vector<std::string> given_config_options(const Args& args) {
  std::vector<std::string> given;
  for (const ConfigOption& option : options_in(OptionSection::Config))
    if (args.has(std::string(option.flag))) given.emplace_back(option.flag);
  return given;
}

}  // namespace slimpack::cli
