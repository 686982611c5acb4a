// Trace mapping rules JSON ({"name", "rules": [{"name", "category", "lane", "pass", "pack_group",
// "pack_base"}]}): parsed (which compiles every regular expression), and when accepted applied to
// a small hand-made trace with realistic event names, so that capture groups, pack numbers and
// lane patterns run too.
#include "fuzz_util.h"
#include "trace/trace_units.h"

namespace {

const slimpack::ImportedTrace& small_trace() {
  static const slimpack::ImportedTrace trace = [] {
    using namespace slimpack;
    ImportedTrace t;
    t.source = "fuzz-trace.json";
    t.names = {"",
               "F1",
               "B1",
               "F12",
               "forward-compute",
               "attn(F)",
               "mlp(B)",
               "forward",
               "backward",
               "kernel",
               "attn(W)",
               "ProfilerStep#3",
               "aaaaaaaaaaaaaaaa",
               "nccl:send 4"};
    for (int stage = 0; stage < 2; ++stage) {
      TraceLane lane;
      lane.pid = std::to_string(stage);
      lane.tid = "1";
      lane.process_name = "replica 0";
      lane.thread_name = "stage " + std::to_string(stage);
      lane.label = lane.process_name + " / " + lane.thread_name;
      for (int k = 1; k < static_cast<int>(t.names.size()); ++k)
        lane.events.push_back({10.0 * k, 5.0, k, k % 2 ? 7 : 8, -1});
      lane.count = static_cast<std::int64_t>(lane.events.size());
      t.lanes.push_back(std::move(lane));
    }
    return t;
  }();
  return trace;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto rules = parse_unit_rules(fuzz::as_text(data, size), "fuzz-rules.json");
  fuzz::require_message(rules, "trace rules: error without message");
  if (!rules) {
    fuzz::require(rules.error().message.rfind("fuzz-rules.json", 0) == 0,
                  "trace rules: unnamed file");
    return 0;
  }
  fuzz::require(!rules->rules.empty(), "trace rules: accepted an empty rule set");
  const ImportedTrace& trace = small_trace();
  auto mapped = map_trace_units(trace, default_lane_mapping(trace), *rules);
  fuzz::require_message(mapped, "trace rules: mapping error without message");
  if (!mapped) return 0;
  for (const MeasuredUnit& u : mapped->units) {
    fuzz::require(u.pack >= 0, "trace rules: negative pack");
    fuzz::require(u.stage >= 0 && u.stage < 2, "trace rules: stage out of range");
  }
  return 0;
}
