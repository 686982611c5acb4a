#pragma once
// Opening a schedule file (docs/file-formats-schedule.md) as the CLI's `simulate --plan` and the
// explorer do: the plan, the cost model its setup fixes, and that setup as a configuration, so a
// front end shows the schedule's model and parallelism and can tell an option that contradicts it.
#include <memory>
#include <string>

#include "app/scenario.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "schedule/schedule.h"

namespace slimpack {

struct LoadedSchedule {
  std::shared_ptr<const Schedule> schedule;
  std::shared_ptr<const Plan> plan;
  std::shared_ptr<const CostModel> cost;  // null for an explicit-time schedule
  ConfigSpec config;                      // the setup as a configuration (schedule_config)
};

// The configuration the schedule's setup describes: model and GPU names, p, d, t, c, schedule,
// the explicit stage split, recompute, memory and token caps, strategy and slice size.
ConfigSpec schedule_config(const Schedule& schedule);

// Reads and checks a schedule file; errors name the file and JSON path.
Expected<LoadedSchedule> load_schedule_file(const std::string& path);
// The same for a schedule already parsed from `path` (the name prefixes errors).
Expected<LoadedSchedule> load_schedule_json(const nlohmann::json& j, const std::string& path);

// The first option set in `given` (the options the user named, as their flags) whose value in
// `user` differs from the schedule's configuration: "--tp 4 contradicts the schedule's setup
// (tp 8): a schedule file fixes its model, parallelism and costs; drop the option".
Status check_schedule_options(const std::vector<std::string>& given, const ConfigSpec& user,
                              const ConfigSpec& schedule);

// The same rule for a plan file (not a schedule): its stages, replicas and schedule are fixed;
// "--pp 3 contradicts the plan samples/plans/x.json (4): a plan file fixes its stages, replicas and
// schedule; drop the option". Other options (model, GPU, --costs) price the plan.
Status check_plan_options(const std::vector<std::string>& given, const ConfigSpec& user,
                          const Plan& plan, const std::string& path);

}  // namespace slimpack
