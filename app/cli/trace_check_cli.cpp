#include "trace_check_cli.h"

#include <algorithm>
#include <cstdio>

#include "output.h"
#include "trace/chrome_trace.h"
#include "trace/trace_check.h"
#include "trace/trace_import.h"
#include "trace/trace_lanes.h"
#include "trace/trace_units.h"

namespace slimpack::cli {
namespace {

constexpr std::size_t kWorstUnitsShown = 5;

const char* pass_name(Pass p) {
  return p == Pass::Forward ? "forward" : "backward";
}

nlohmann::json check_json(const TraceCheck& c, const MappedTrace& m, const std::string& file) {
  nlohmann::json units = nlohmann::json::array();
  for (const UnitComparison& u : c.units)
    units.push_back({{"replica", u.replica},
                     {"stage", u.stage},
                     {"pass", pass_name(u.pass)},
                     {"pack", u.pack},
                     {"simulated_us", u.simulated_us},
                     {"measured_us", u.measured_us},
                     {"error", u.error}});
  return {{"file", file},
          {"rules", m.rule_set},
          {"matched_units", c.units.size()},
          {"only_simulated", c.only_simulated},
          {"only_measured", c.only_measured},
          {"mape", c.mape},
          {"simulated_makespan_us", c.simulated_makespan_us},
          {"measured_makespan_us", c.measured_makespan_us},
          {"makespan_error", c.makespan_error},
          {"units", units}};
}

// printf into a string: the report is built before anything is printed, so a bad trace stops the
// command with one message and no half-printed result.
template <typename... T>
void appendf(std::string& out, const char* format, T... values) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, values...);
  out += buf;
}

std::string check_text(const TraceCheck& c, const MappedTrace& m, const std::string& file) {
  std::string out;
  appendf(out, "\nmeasured against simulated (%s, rules %s)\n", file.c_str(), m.rule_set.c_str());
  appendf(out, "  units matched %zu, only simulated %lld, only measured %lld\n", c.units.size(),
          static_cast<long long>(c.only_simulated), static_cast<long long>(c.only_measured));
  appendf(out, "  MAPE          %s\n", format_percent(c.mape).c_str());
  appendf(out, "  makespan      simulated %s, measured %s (%+.1f %%)\n",
          format_time(c.simulated_makespan_us * 1e-6).c_str(),
          format_time(c.measured_makespan_us * 1e-6).c_str(), 100.0 * c.makespan_error);
  const std::size_t n = std::min(kWorstUnitsShown, c.units.size());
  for (std::size_t i = 0; i < n; ++i) {
    const UnitComparison& u = c.units[i];
    appendf(
        out,
        "  worst %zu       replica %d stage %d %s pack %d: simulated %s, measured %s (%+.1f %%)\n",
        i + 1, u.replica, u.stage, pass_name(u.pass), u.pack,
        format_time(u.simulated_us * 1e-6).c_str(), format_time(u.measured_us * 1e-6).c_str(),
        100.0 * u.error);
  }
  return out;
}

}  // namespace

std::vector<OptionSpec> trace_check_options() {
  return {
      {"check-trace", "FILE",
       "compare a measured trace with this simulation (per-unit error, MAPE, makespan)"},
      {"trace-rules", "NAME|FILE",
       "which trace events are pack work: slimpack (default), megatron, dualpipe or a rules JSON"},
      {"trace-lanes", "FILE",
       "lane -> stage mapping JSON (default: our exports' names, else one stage per process)"}};
}

Expected<UnitRuleSet> trace_rules_option(const Args& args) {
  const std::string spec = args.get_or("trace-rules", "slimpack");
  const auto& names = builtin_unit_rule_set_names();
  if (std::find(names.begin(), names.end(), spec) != names.end()) return builtin_unit_rules(spec);
  auto rules = read_unit_rules(spec);
  if (!rules) return rules.error().with_context("--trace-rules");
  return rules;
}

Expected<LaneMapping> trace_lanes_option(const Args& args, const ImportedTrace& trace) {
  if (auto file = args.get("trace-lanes")) return read_lane_mapping(*file);
  return default_lane_mapping(trace);
}

Expected<std::optional<TraceCheckReport>> check_trace_option(const Args& args,
                                                             const SimResult& sim) {
  const auto file = args.get("check-trace");
  if (!file) {
    if (args.has("trace-rules") || args.has("trace-lanes"))
      return Error::bad_input("--trace-rules and --trace-lanes need --check-trace FILE");
    return std::optional<TraceCheckReport>{};
  }
  auto rules = trace_rules_option(args);
  if (!rules) return rules.error();
  auto trace = import_chrome_trace(*file, {.keep_events = true, .keep_args = false});
  if (!trace) return trace.error();
  auto lanes = trace_lanes_option(args, *trace);
  if (!lanes) return lanes.error();
  auto mapped = map_trace_units(*trace, *lanes, *rules);
  if (!mapped) return mapped.error();
  const TraceCheck check = check_against_simulation(*mapped, sim, trace_us_per_unit(sim));
  return std::optional<TraceCheckReport>{
      TraceCheckReport{check_json(check, *mapped, *file), check_text(check, *mapped, *file)}};
}

}  // namespace slimpack::cli
