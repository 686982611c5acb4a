// Schedule JSON, as `slimpack simulate --plan` and slimpack-run read it: parse, rebuild the plan
// and its cost model from the setup, check the actions; what reads must write back to itself and
// replay to the simulator's iteration time.
#include "common/json_util.h"
#include "fuzz_util.h"
#include "schedule/schedule.h"
#include "sim/simulator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto json = json_util::parse(fuzz::as_text(data, size));
  fuzz::require_message(json, "schedule: JSON error without message");
  if (!json) return 0;
  auto schedule = schedule_from_json(*json);
  fuzz::require_message(schedule, "schedule: error without message");
  if (!schedule) return 0;

  const nlohmann::json written = schedule_to_json(*schedule);
  auto again = schedule_from_json(written);
  fuzz::require(again.ok(), "schedule: its own JSON does not read back");
  fuzz::require(schedule_to_json(*again) == written, "schedule: round trip changed it");

  auto cost = schedule_cost_model(*schedule);
  fuzz::require_message(cost, "schedule: cost error without message");
  if (!cost) return 0;
  // Bound the work a hostile file can ask for: replay and simulate small schedules only.
  std::size_t actions = 0;
  for (const ScheduleRank& r : schedule->ranks) actions += r.actions.size();
  if (actions > 20000) return 0;
  auto sim = simulate(schedule->plan, cost->get());
  fuzz::require_message(sim, "schedule: simulation error without message");
  auto replay = replay_schedule(*schedule, cost->get());
  fuzz::require_message(replay, "schedule: replay error without message");
  if (sim && replay)
    fuzz::require(sim->iteration_time == replay->iteration_time,
                  "schedule: replay and simulation disagree");
  return 0;
}
