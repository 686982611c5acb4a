// Plan JSON, as `slimpack simulate --plan` reads it: parse, check, write back (the round trip must
// give the same plan) and simulate, with the default cost model when a pack has no explicit time.
#include <map>
#include <memory>
#include <utility>

#include "common/json_util.h"
#include "cost/cost_json.h"
#include "cost/model_config.h"
#include "fuzz_util.h"
#include "plan/legality.h"
#include "plan/plan_json.h"
#include "sim/simulator.h"

namespace {

// Cost models by (pp, dp): building one per input would dominate the run time.
std::shared_ptr<const slimpack::CostModel> cost_for(int pp, int dp) {
  static std::map<std::pair<int, int>, std::shared_ptr<const slimpack::CostModel>> cache;
  auto [it, added] = cache.try_emplace({pp, dp});
  if (added) {
    // The CLI's default model (Llama-3-8B on H100, t=8) shaped like the plan.
    slimpack::CostSetup setup;
    setup.model = *slimpack::model_preset("llama-3-8b");
    setup.gpu = *slimpack::gpu_preset("h100-sxm");
    setup.par.pp = pp;
    setup.par.dp = dp;
    setup.par.tp = 8;
    auto cost = slimpack::cost_model_from_setup(setup);
    if (cost) it->second = std::make_shared<const slimpack::CostModel>(std::move(*cost));
  }
  return it->second;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto json = json_util::parse(fuzz::as_text(data, size));
  fuzz::require_message(json, "plan: JSON error without message");
  if (!json) return 0;
  auto plan = plan_from_json(*json);
  fuzz::require_message(plan, "plan: error without message");
  if (!plan) return 0;

  const nlohmann::json written = plan_to_json(*plan);
  auto again = plan_from_json(written);
  fuzz::require(again.ok(), "plan: its own JSON does not read back");
  fuzz::require(plan_to_json(*again) == written, "plan: round trip changed the plan");
  (void)plan_to_string(*plan);

  const LegalityReport legality = check_legality(*plan);
  fuzz::require(legality.legal() || !legality.summary().empty(), "plan: violation without text");
  std::shared_ptr<const CostModel> cost;
  if (!plan->has_explicit_times()) {
    cost = cost_for(plan->stages, plan->dp());
    if (!cost) return 0;
  }
  auto sim = simulate(*plan, cost.get());
  fuzz::require_message(sim, "plan: simulation error without message");
  return 0;
}
