// Trace lane mapping JSON ({"lanes": [{"pid", "tid", "stage", "replica"}]}).
#include "fuzz_util.h"
#include "trace/trace_lanes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto mapping = parse_lane_mapping(fuzz::as_text(data, size), "fuzz.json");
  fuzz::require_message(mapping, "lane mapping: error without message");
  if (!mapping) return 0;
  for (const auto& [lane, stage] : mapping->stage_of_lane)
    fuzz::require(stage >= 0, "lane mapping: negative stage");
  return 0;
}
