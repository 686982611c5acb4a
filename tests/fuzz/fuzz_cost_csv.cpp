// Measured cost CSV (`fit-costs FILE.csv`): parsed and fitted.
#include "cost/profile.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto profile = parse_cost_profile_csv(fuzz::as_text(data, size), "fuzz.csv");
  fuzz::require_message(profile, "cost csv: error without message");
  if (!profile) return 0;
  fuzz::require(!profile->samples.empty(), "cost csv: read with no samples");
  auto fitted = fit_profile(*profile);
  fuzz::require_message(fitted, "cost csv: fit error without message");
  if (fitted) (void)parse_cost_profile_json(profile_to_json(*fitted), "fuzz.json");
  return 0;
}
