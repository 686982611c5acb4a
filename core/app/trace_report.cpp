#include "app/trace_report.h"

#include <algorithm>
#include <cstdio>

#include "common/format.h"
#include "plan/pack_name.h"

namespace slimpack {
namespace {

const char* pass_name(Pass p) {
  return p == Pass::Forward ? "forward" : "backward";
}

template <typename... T>
void appendf(std::string& out, const char* format, T... values) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, values...);
  out += buf;
}

std::string file_of(const TraceCheck& check, int source) {
  return source >= 0 && static_cast<std::size_t>(source) < check.sources.size()
             ? check.sources[static_cast<std::size_t>(source)]
             : std::string("?");
}

}  // namespace

std::string unit_events_text(const UnitComparison& unit, const TraceCheck& check) {
  std::string out;
  for (const UnitEventRef& e : unit.events) {
    out += (out.empty() ? "" : ", ") + file_of(check, e.source) + "#" + std::to_string(e.event) +
           " " + e.name;
    if (e.kernels > 0) out += " +" + std::to_string(e.kernels) + " kernels";
  }
  return out;
}

nlohmann::json trace_check_json(const TraceRun& run, const TraceRunRequest& request,
                                const TraceRunCheck& result) {
  const TraceCheck& c = result.check;
  // A run that cannot be of the plan has no error: its percentages would compare two runs.
  const bool comparable = result.mismatch.empty();
  nlohmann::json files = nlohmann::json::array();
  for (const RankTrace& f : run.ranks)
    files.push_back({{"file", f.path},
                     {"rank", f.rank},
                     {"rank_from", rank_from_name(f.rank_from)},
                     {"shift_us", f.shift_us}});
  nlohmann::json units = nlohmann::json::array();
  for (const UnitComparison& u : c.units) {
    nlohmann::json events = nlohmann::json::array();
    for (const UnitEventRef& e : u.events) {
      // The file as given (files[].file), so a script can open it and read traceEvents[event].
      const bool known = e.source >= 0 && static_cast<std::size_t>(e.source) < run.ranks.size();
      nlohmann::json ej = {{"file", known ? run.ranks[static_cast<std::size_t>(e.source)].path
                                          : file_of(c, e.source)},
                           {"event", e.event},
                           {"name", e.name}};
      if (e.kernels > 0) ej["kernels"] = e.kernels;
      events.push_back(std::move(ej));
    }
    nlohmann::json uj = {{"replica", u.replica},           {"stage", u.stage},
                         {"pass", pass_name(u.pass)},      {"pack", u.pack},
                         {"simulated_us", u.simulated_us}, {"measured_us", u.measured_us}};
    if (comparable) uj["error"] = u.error;
    uj["events"] = std::move(events);
    units.push_back(std::move(uj));
  }
  nlohmann::json out = {{"files", std::move(files)},
                        {"rules", result.mapped.rule_set},
                        {"gpu_time", request.options.gpu_flows ? "flows" : "cpu"},
                        {"matched_units", c.units.size()},
                        {"only_simulated", c.only_simulated},
                        {"only_measured", c.only_measured},
                        {"simulated_makespan_us", c.simulated_makespan_us},
                        {"measured_makespan_us", c.measured_makespan_us}};
  if (comparable) {
    out["mape"] = c.mape;
    out["makespan_error"] = c.makespan_error;
  } else {
    out["mismatch"] = result.mismatch;
  }
  out["units"] = std::move(units);
  if (!result.priced_as.empty()) out["priced_as"] = result.priced_as;
  if (!result.priced_by.empty()) out["priced_by"] = result.priced_by;
  // Only for a run that has them: which file said where the ranks run, and where the traces
  // were found (torchtitan's iteration folders).
  if (run.table)
    out["rank_table"] = {{"file", run.table->file},
                         {"kind", run.table->torch_csv ? "torch-pp csv" : "schedule"}};
  if (!run.layout_note.empty()) out["layout"] = run.layout_note;
  return out;
}

std::string trace_check_text(const TraceRun& run, const TraceRunCheck& result, std::size_t worst) {
  const TraceCheck& c = result.check;
  std::string out;
  const std::string first = run.ranks.empty() ? std::string() : run.ranks.front().path;
  const std::string files =
      run.ranks.size() == 1 ? first : std::to_string(run.ranks.size()) + " rank files";
  appendf(out, "\nmeasured against simulated (%s, rules %s)\n", files.c_str(),
          result.mapped.rule_set.c_str());
  if (!run.layout_note.empty()) appendf(out, "  traces        %s\n", run.layout_note.c_str());
  if (run.table)
    appendf(out, "  ranks         as %s says (%s)\n", run.table->file.c_str(),
            run.table->torch_csv ? "PyTorch's pipeline schedule CSV" : "its rank table");
  if (run.ranks.size() > 1)
    for (const RankTrace& f : run.ranks)
      appendf(out, "  rank %-7d %s (rank from %s)\n", f.rank, f.path.c_str(),
              rank_from_name(f.rank_from));
  if (!result.priced_as.empty()) appendf(out, "  priced        %s\n", result.priced_as.c_str());
  if (!result.priced_by.empty()) appendf(out, "  priced by     %s\n", result.priced_by.c_str());
  appendf(out, "  units matched %zu, only simulated %lld, only measured %lld\n", c.units.size(),
          static_cast<long long>(c.only_simulated), static_cast<long long>(c.only_measured));
  if (!result.mismatch.empty()) {
    // Two different runs: durations side by side, no percentage.
    appendf(out, "  verdict       not a run of this plan: %s; no error is computed\n",
            result.mismatch.c_str());
    appendf(out, "  makespan      simulated %s, measured %s\n",
            format_time(c.simulated_makespan_us * 1e-6).c_str(),
            format_time(c.measured_makespan_us * 1e-6).c_str());
    return out;
  }
  appendf(out, "  MAPE          %s\n", format_percent(c.mape).c_str());
  appendf(out, "  makespan      simulated %s, measured %s (%+.1f %%)\n",
          format_time(c.simulated_makespan_us * 1e-6).c_str(),
          format_time(c.measured_makespan_us * 1e-6).c_str(), 100.0 * c.makespan_error);
  const std::size_t n = std::min(worst, c.units.size());
  for (std::size_t i = 0; i < n; ++i) {
    const UnitComparison& u = c.units[i];
    appendf(out,
            "  worst %zu       replica %d stage %d %s pack %s: simulated %s, measured %s "
            "(%+.1f %%)\n",
            i + 1, u.replica, u.stage, pass_name(u.pass), pack_name(u.pass, u.pack).c_str(),
            format_time(u.simulated_us * 1e-6).c_str(), format_time(u.measured_us * 1e-6).c_str(),
            100.0 * u.error);
    out += "                from " + unit_events_text(u, c) + "\n";
  }
  return out;
}

}  // namespace slimpack
