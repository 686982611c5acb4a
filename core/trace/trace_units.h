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

// "slimpack" (F<n>/B<n> ranges of any category but a GPU copy of an annotation: our export, a
// PyTorch record_function), "pytorch" (F<n>/B<n> record_function ranges only: category
// user_annotation, or none in the legacy profiler), "megatron" (forward-compute /
// backward-compute ranges), "dualpipe" (annotations ending in (F), (B) or (W); W counts as
// backward work), "torch-pp" (PyTorch's pipeline runtime: PP:<stage>F<k> forward,
// PP:<stage>B<k>, PP:<stage>I<k> and PP:<stage>W<k> backward of micro-batch k, counted from 0).
// Names match whole: "wait RECV_F3" is no unit.
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

// One measured unit of pipeline work, and the event it was built from.
struct MeasuredUnit {
  int replica = 0;
  int stage = 0;
  Pass pass = Pass::Forward;
  int pack = 0;
  double start_us = 0.0;
  double dur_us = 0.0;
  std::int32_t name = 0;    // into the source trace's names
  int source = 0;           // which file of the run (MappedTrace::sources)
  std::int32_t lane = 0;    // into the source trace's lanes
  std::int32_t event = -1;  // the event's position in its file's event array (traceEvents[event])
  int kernels = 0;          // GpuTime::Flows: the GPU kernels whose span is the unit's time
};

// Which time a unit measures.
enum class GpuTime {
  CpuRange,  // the matched range itself (default: the CPU time of a record_function range)
  Flows,     // the span of the GPU kernels launched inside it, followed by "ac2g" flows; a range
             // that launched none keeps its CPU time
};

struct LaneActivity {
  int source = 0;        // which file of the run
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
  std::vector<MeasuredUnit> units;   // by replica, stage, pass, pack
  std::vector<LaneActivity> lanes;   // one per trace lane
  std::vector<std::string> sources;  // the files' labels, by MeasuredUnit::source
  // The name of a unit's event ("F3"), from its source trace; set by map_trace_files.
  std::vector<std::vector<std::string>> names;
  const std::string& name_of(const MeasuredUnit& u) const {
    return names[static_cast<std::size_t>(u.source)][static_cast<std::size_t>(u.name)];
  }
};

// Needs a trace imported with its events kept. Errors when no event matches any rule (a wrong rule
// set is the likely cause: the message says which were tried).
Expected<MappedTrace> map_trace_units(const ImportedTrace& trace, const LaneMapping& lanes,
                                      const UnitRuleSet& rules,
                                      GpuTime gpu_time = GpuTime::CpuRange);

// One file of a multi-rank run with the mapping of its lanes.
struct TraceFileMapping {
  const ImportedTrace* trace = nullptr;
  std::string label;  // file name, for the units' provenance
  LaneMapping lanes;
};

// The units of every file of a run (MeasuredUnit::source = position in `files`). The error for no
// match at all names the rules tried; a file without units is not an error.
Expected<MappedTrace> map_trace_files(const std::vector<TraceFileMapping>& files,
                                      const UnitRuleSet& rules,
                                      GpuTime gpu_time = GpuTime::CpuRange);

// Length covered by the union of [start, start + dur) intervals (sorted by start, as lanes are).
double union_length(const std::vector<TraceEvent>& sorted_events);

}  // namespace slimpack
