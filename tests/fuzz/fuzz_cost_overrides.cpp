// Cost override JSON (model, GPU, parallelism, options and coefficients; `--cost-overrides`):
// applied to the default setup, the cost model built and queried, and the setup written back and
// read again unchanged.
#include <cmath>

#include "common/json_util.h"
#include "cost/cost_json.h"
#include "cost/model_config.h"
#include "fuzz_util.h"

namespace {

slimpack::CostSetup default_setup() {
  slimpack::CostSetup s;
  s.model = *slimpack::model_preset("llama-3-8b");
  s.gpu = *slimpack::gpu_preset("h100-sxm");
  s.par.pp = 4;
  s.par.tp = 8;
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto json = json_util::parse(fuzz::as_text(data, size));
  if (!json) return 0;
  const CostSetup before = default_setup();
  CostSetup setup = before;
  Status applied = apply_cost_overrides(*json, setup, "fuzz.json");
  fuzz::require_message(applied, "overrides: error without message");
  if (!applied) {
    fuzz::require(to_json(setup) == to_json(before), "overrides: a failed apply changed the setup");
    return 0;
  }
  const nlohmann::json written = to_json(setup);
  CostSetup again = default_setup();
  fuzz::require(apply_cost_overrides(written, again, "fuzz.json").ok(),
                "overrides: the written setup does not read back");
  fuzz::require(to_json(again) == written, "overrides: round trip changed the setup");

  auto model = cost_model_from_setup(setup);
  fuzz::require_message(model, "overrides: model error without message");
  if (!model) return 0;
  for (int stage = 0; stage < model->parallel().pp && stage < 4; ++stage) {
    for (Pass pass : {Pass::Forward, Pass::Backward}) {
      const double t = model->time(pass, stage, 4096.0, 4096.0 * 4097.0 / 2.0);
      fuzz::require(!std::isnan(t), "overrides: NaN pack time");
    }
    (void)model->static_bytes(stage);
    (void)model->dp_sync_time(stage);
  }
  (void)model->p2p_time(4096.0);
  (void)model->memory_cap();
  return 0;
}
