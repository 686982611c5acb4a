// Hugging Face config.json (`--hf-config`, cost/hf_config.h): read as a model, then the model
// validated, priced and written as the cost JSON, which reads back to the same model.
#include <cmath>

#include "common/json_util.h"
#include "cost/cost_json.h"
#include "cost/cost_model.h"
#include "cost/hf_config.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto json = json_util::parse(fuzz::as_text(data, size));
  if (!json) return 0;
  auto model = hf_config_from_json(*json, "config.json");
  fuzz::require_message(model, "hf config: error without message");
  if (!model) return 0;
  fuzz::require(model->head_dim() > 0, "hf config: a model without a head dimension");
  CostSetup setup;
  setup.model = *model;
  setup.gpu = *gpu_preset("h100-sxm");
  const nlohmann::json written = to_json(setup);
  CostSetup again;
  fuzz::require(apply_cost_overrides(written, again, "").ok(),
                "hf config: the model's cost JSON does not read back");
  fuzz::require(to_json(again) == written, "hf config: the cost JSON round trip changed the model");
  auto cost = cost_model_from_setup(setup);
  fuzz::require_message(cost, "hf config: cost model error without message");
  if (!cost) return 0;
  for (Pass pass : {Pass::Forward, Pass::Backward}) {
    const double t = cost->time(pass, 0, 4096.0, 4096.0 * 4097.0 / 2.0);
    fuzz::require(!std::isnan(t) && t > 0.0, "hf config: pack time not positive");
  }
  fuzz::require(cost->static_bytes(0) > 0.0, "hf config: no static memory");
  return 0;
}
