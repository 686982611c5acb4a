#include "app/schedule_input.h"

#include "app/config_options.h"
#include "common/json_util.h"

namespace slimpack {

ConfigSpec schedule_config(const Schedule& schedule) {
  const Plan& plan = schedule.plan;
  ConfigSpec c;
  c.pp = plan.stages;
  c.dp = plan.dp();
  c.schedule = plan.schedule;
  if (plan.schedule == ScheduleKind::Interleaved) c.vchunks = plan.vchunks;
  if (!plan.strategy.empty()) c.strategy = plan.strategy;
  c.slice_size = plan.slice_size;
  if (schedule.costs) {
    const CostSetup& s = *schedule.costs;
    c.model = s.model.name;
    // A model read from a config.json is that file again (a matching --hf-config agrees).
    const std::string hf = "hf-config:";
    if (s.model.source.rfind(hf, 0) == 0) c.hf_config_file = s.model.source.substr(hf.size());
    c.gpu = s.gpu.name;
    c.tp = s.par.tp;
    c.cp = s.par.cp;
    c.recompute = s.options.recompute;
    c.stage_split = StageSplitSpec{false, schedule.stage_layers};
    c.memory_cap_gb = s.options.memory_cap_bytes / 1e9;
    c.token_cap = s.options.token_cap;
  }
  return c;
}

Expected<LoadedSchedule> load_schedule_file(const std::string& path) {
  auto j = json_util::parse_file(path);
  if (!j) return j.error();
  return load_schedule_json(*j, path);
}

Expected<LoadedSchedule> load_schedule_json(const nlohmann::json& j, const std::string& path) {
  auto schedule = schedule_from_json(j);
  if (!schedule) return schedule.error().with_context(path);
  auto cost = schedule_cost_model(*schedule);
  if (!cost) return cost.error().with_context(path);
  LoadedSchedule out;
  out.config = schedule_config(*schedule);
  out.plan = std::make_shared<const Plan>(schedule->plan);
  out.cost = *cost;
  out.schedule = std::make_shared<const Schedule>(std::move(*schedule));
  return out;
}

namespace {

// The first given option whose value in `user` differs from `fixed`: "<opt> <v> contradicts <whose>
// (<fixed v>): <why>; drop the option".
Status first_contradiction(const std::vector<std::string>& given, const ConfigSpec& user,
                           const ConfigSpec& fixed, const std::string& whose,
                           const std::string& why) {
  ScenarioSpec mine, theirs;
  mine.config = user;
  theirs.config = fixed;
  for (const ConfigOption& option : options_in(OptionSection::Config)) {
    bool named = false;
    for (const std::string& flag : given) named = named || flag == option.flag;
    if (!named || option.get == nullptr) continue;
    const OptionValue a = option.get(mine), b = option.get(theirs);
    if (a == b) continue;
    const std::string value = option_text(option, a), held = option_text(option, b);
    return Error::bad_input(cli_name(option) + (value.empty() ? "" : " " + value) +
                            " contradicts " + whose + " (" + (held.empty() ? "not set" : held) +
                            "): " + why + "; drop the option");
  }
  return {};
}

}  // namespace

Status check_schedule_options(const std::vector<std::string>& given, const ConfigSpec& user,
                              const ConfigSpec& schedule) {
  return first_contradiction(given, user, schedule, "the schedule's setup",
                             "a schedule file fixes its model, parallelism and costs");
}

Status check_plan_options(const std::vector<std::string>& given, const ConfigSpec& user,
                          const Plan& plan, const std::string& path) {
  ConfigSpec fixed = user;
  fixed.pp = plan.stages;
  fixed.dp = plan.dp();
  fixed.schedule = plan.schedule;
  if (plan.schedule == ScheduleKind::Interleaved) fixed.vchunks = plan.vchunks;
  return first_contradiction(given, user, fixed, "the plan " + path,
                             "a plan file fixes its stages, replicas and schedule");
}

}  // namespace slimpack
