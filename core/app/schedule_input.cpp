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

Status check_schedule_options(const std::vector<std::string>& given, const ConfigSpec& user,
                              const ConfigSpec& schedule) {
  const ScenarioSpec mine{{}, user, {}}, theirs{{}, schedule, {}};
  for (const ConfigOption& option : options_in(OptionSection::Config)) {
    bool named = false;
    for (const std::string& flag : given) named = named || flag == option.flag;
    if (!named || option.get == nullptr) continue;
    const OptionValue a = option.get(mine), b = option.get(theirs);
    if (a == b) continue;
    const std::string value = option_text(option, a), fixed = option_text(option, b);
    return Error::bad_input(cli_name(option) + (value.empty() ? "" : " " + value) +
                            " contradicts the schedule's setup (" +
                            (fixed.empty() ? "not set" : fixed) +
                            "): a schedule file fixes its model, parallelism and costs; drop "
                            "the option");
  }
  return {};
}

}  // namespace slimpack
