// Cost profile JSON (`fit-costs` output, `--cost-profile`): parsed, fitted, written and read back.
#include "cost/profile.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto profile = parse_cost_profile_json(fuzz::as_text(data, size), "fuzz.json");
  fuzz::require_message(profile, "profile: error without message");
  if (!profile) return 0;
  const std::string written = profile_to_json(*profile);
  auto again = parse_cost_profile_json(written, "fuzz.json");
  fuzz::require(again.ok(), "profile: its own JSON does not read back");
  fuzz::require(profile_to_json(*again) == written, "profile: round trip changed it");
  auto fitted = fit_profile(*profile);
  fuzz::require_message(fitted, "profile: fit error without message");
  if (fitted) (void)coeffs_from_profile(*fitted, CostCoeffs{});
  return 0;
}
