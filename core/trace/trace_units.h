#pragma once
// Which events of a measured trace are pipeline work: rules (regular expressions on the event name,
// its category and its lane) mark an event as forward or backward work of a stage and a pack, so a
// real profiler trace can be held against a simulated schedule (core/trace/trace_check.h).
// Names longer than 4096 characters are never units and patterns are at most 512 characters
// (std::regex backtracks recursively). Built-in rule sets: our own `simulate --trace` export,
// Megatron-style timer ranges, DualPipe-style annotations. Stage and replica of a lane come from
// the lane mapping (core/trace/trace_lanes.h).
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "common/status.h"
#include "plan/plan.h"
#include "trace/trace_import.h"
#include "trace/trace_lanes.h"

namespace slimpack {

struct UnitRule {
  std::string name_pattern;      // ECMAScript regex, whole name (std::regex_match)
  std::string category_pattern;  // whole category; empty: any
  std::string lane_pattern;      // searched in the lane label ("process / thread"); empty: any
  Pass pass = Pass::Forward;
  // Pack index from capture group `pack_group` of the name (minus `pack_base`, e.g. "F3" -> 2);
  // 0: the k-th matching event of this pass on its lane is pack k (micro-batch order).
  int pack_group = 0;
  int pack_base = 1;
};

struct UnitRuleSet {
  std::string name;
  std::vector<UnitRule> rules;  // the first rule that matches an event decides
};

// "slimpack" (our export: F<n>/B<n>), "megatron" (forward-compute / backward-compute ranges),
// "dualpipe" (annotations ending in (F), (B) or (W); W counts as backward work).
const std::vector<std::string>& builtin_unit_rule_set_names();
Expected<UnitRuleSet> builtin_unit_rules(const std::string& name);
// {"name": "...", "rules": [{"name": REGEX, "category": REGEX, "lane": REGEX, "pass":
// "forward"|"backward", "pack_group": N, "pack_base": N}, ...]}; errors name the file and JSON
// path, and an invalid regular expression names the rule.
Expected<UnitRuleSet> parse_unit_rules(const std::string& json_text, const std::string& source);
Expected<UnitRuleSet> read_unit_rules(const std::string& path);
// The rules JSON above (empty category and lane patterns left out); parse_unit_rules reads it back.
std::string unit_rules_to_json(const UnitRuleSet& rules);
// What map_trace_units checks before matching: at least one rule, patterns at most 512
// characters, valid ECMAScript expressions, pack_group within the name pattern's capture groups
// (0..9) and pack_base 0 or 1. Errors name the set and the rule ("set: rules[2]: ...").
Status validate_unit_rules(const UnitRuleSet& rules);

// One measured unit of pipeline work.
struct MeasuredUnit {
  int replica = 0;
  int stage = 0;
  Pass pass = Pass::Forward;
  int pack = 0;
  double start_us = 0.0;
  double dur_us = 0.0;
  std::int32_t name = 0;  // into ImportedTrace::names
};

struct LaneActivity {
  std::size_t lane = 0;  // index into ImportedTrace::lanes
  int stage = -1;        // -1: not a pipeline lane
  int replica = 0;
  std::int64_t units = 0;   // events mapped to units on this lane
  double busy_us = 0.0;     // union of all event intervals (nested and overlapping count once)
  double span_us = 0.0;     // first start to last end on the lane
  double idle_ratio = 0.0;  // 1 - busy / span
};

struct MappedTrace {
  std::string rule_set;
  std::vector<MeasuredUnit> units;  // by replica, stage, pass, pack
  std::vector<LaneActivity> lanes;  // one per trace lane
};

// Needs a trace imported with its events kept. Errors when no event matches any rule (a wrong rule
// set is the likely cause: the message says which were tried).
Expected<MappedTrace> map_trace_units(const ImportedTrace& trace, const LaneMapping& lanes,
                                      const UnitRuleSet& rules);

// Length covered by the union of [start, start + dur) intervals (sorted by start, as lanes are).
double union_length(const std::vector<TraceEvent>& sorted_events);

}  // namespace slimpack
