#include "app/trace_run.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "app/pipeline.h"
#include "app/rank_table.h"
#include "app/run_layout.h"
#include "app/torch_pp_export.h"
#include "app/torch_pp_run.h"
#include "common/format.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"
#include "trace/trace_lanes.h"
#include "trace/trace_sniff.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;

std::string file_label(const std::string& path) {
  return fs::path(path).filename().string();
}

// The earliest start of an event named `name` in the trace, if any.
std::optional<double> first_named(const ImportedTrace& trace, const std::string& name) {
  std::optional<std::int32_t> id;
  for (std::size_t i = 0; i < trace.names.size(); ++i)
    if (trace.names[i] == name) id = static_cast<std::int32_t>(i);
  if (!id) return {};
  std::optional<double> first;
  for (const TraceLane& lane : trace.lanes)
    for (const TraceEvent& e : lane.events)
      if (e.name == *id && (!first || e.start_us < *first)) first = e.start_us;
  return first;
}

void shift_trace(ImportedTrace& trace, double shift_us) {
  if (shift_us == 0.0) return;
  for (TraceLane& lane : trace.lanes)
    for (TraceEvent& e : lane.events) e.start_us += shift_us;
  for (TraceFlowPoint& f : trace.flows) f.ts_us += shift_us;
}

}  // namespace

const char* rank_from_name(RankFrom from) {
  switch (from) {
    case RankFrom::DistributedInfo:
      return "distributedInfo";
    case RankFrom::FileName:
      return "file name";
    case RankFrom::Order:
      return "order";
  }
  return "order";
}

Status assign_ranks(std::vector<RankTrace>& files, const std::vector<int>& info_ranks) {
  std::map<int, std::size_t> taken;
  for (std::size_t i = 0; i < files.size(); ++i) {
    RankTrace& f = files[i];
    const int info = i < info_ranks.size() ? info_ranks[i] : -1;
    if (info >= 0) {
      f.rank = info;
      f.rank_from = RankFrom::DistributedInfo;
    } else if (const int r = rank_from_file_name(f.path); r >= 0) {
      f.rank = r;
      f.rank_from = RankFrom::FileName;
    } else {
      f.rank = -1;
      continue;
    }
    const auto [it, fresh] = taken.try_emplace(f.rank, i);
    if (!fresh)
      return Error::bad_input(f.path + ": rank " + std::to_string(f.rank) + " (from its " +
                              rank_from_name(f.rank_from) + ") is also the rank of " +
                              files[it->second].path + ": one file per rank");
  }
  int next = 0;
  for (RankTrace& f : files) {
    if (f.rank >= 0) continue;
    while (taken.count(next)) ++next;
    f.rank = next;
    f.rank_from = RankFrom::Order;
    taken.emplace(next, 0);
  }
  return {};
}

Expected<std::vector<std::string>> trace_run_files(const std::vector<std::string>& given) {
  auto layout = run_layout(given);
  if (!layout) return layout.error();
  return std::move(layout->traces);
}

Expected<RunFiles> run_files(const std::vector<std::string>& given) {
  RunFiles out;
  std::string table;
  auto set_plan = [&](const std::string& path) -> Status {
    if (!out.plan_file.empty())
      return Error::bad_input(path + ": a second plan beside " + out.plan_file +
                              ": a run has one plan");
    out.plan_file = path;
    return {};
  };
  for (const std::string& path : given) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      // The traces (torchtitan's iteration folders too) and the torch CSV, as a run's traces are
      // found; the plan is the folder's plan or schedule file.
      if (folder_has_traces(path)) {
        auto layout = run_layout({path});
        if (!layout) return layout.error();
        out.traces.insert(out.traces.end(), layout->traces.begin(), layout->traces.end());
        if (layout->torch_csv) table = layout->table_file;
      }
      std::vector<std::string> inside;
      for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.is_regular_file()) inside.push_back(entry.path().string());
      if (ec) return Error::bad_input(path + ": cannot list the folder: " + ec.message());
      std::sort(inside.begin(), inside.end());
      for (const std::string& p : inside)
        if (!looks_like_trace(p) && looks_like_plan_or_schedule_file(p))
          if (Status s = set_plan(p); !s) return s.error();
      continue;
    }
    if (looks_like_trace(path)) {
      out.traces.push_back(path);
    } else if (fs::path(path).extension() == ".csv") {
      table = path;
    } else if (looks_like_plan_or_schedule_file(path)) {
      if (Status s = set_plan(path); !s) return s.error();
    } else {
      return Error::bad_input(path + ": neither a plan or schedule file nor a trace");
    }
  }
  if (out.plan_file.empty())
    return Error::bad_input(
        "no plan or schedule file among the run's files (\"format\": "
        "\"slimpack-plan\")");
  if (out.traces.empty())
    return Error::bad_input(out.plan_file + ": no trace file beside the plan");
  if (!table.empty()) out.traces.push_back(table);
  return out;
}

Expected<TraceRun> load_trace_run(const TraceRunRequest& request, bool keep_args,
                                  const CancelToken& cancel, ProgressSink& progress,
                                  TaskPool& pool) {
  auto layout = run_layout(request.files);
  if (!layout) return layout.error();
  const std::vector<std::string>* paths = &layout->traces;
  const TraceSpec& spec = request.options;
  if (!spec.align_event.empty() && !spec.offsets_us.empty())
    return Error::bad_input("--trace-align and --trace-offsets are exclusive: align by one");
  if (!spec.offsets_us.empty() && spec.offsets_us.size() != paths->size())
    return Error::bad_field("--trace-offsets", std::to_string(spec.offsets_us.size()) +
                                                   " offsets for " + std::to_string(paths->size()) +
                                                   " trace files");
  TraceRun run;
  run.layout_note = layout->note;
  if (!layout->table_file.empty()) {
    auto table = read_run_table(*layout);
    if (!table) return table.error();
    run.table = std::move(*table);
  }
  std::vector<RankTrace> files;
  auto traces = import_chrome_traces(*paths, {.keep_events = true, .keep_args = keep_args}, pool,
                                     cancel, progress);
  for (std::size_t i = 0; i < paths->size(); ++i) {
    const std::string& path = (*paths)[i];
    auto& trace = traces[i];
    if (!trace) return trace.error();
    if (cancel.cancelled()) return Error::cancelled();
    RankTrace f;
    f.path = path;
    f.label = file_label(path);
    if (!spec.offsets_us.empty()) f.shift_us = spec.offsets_us[i];
    if (!spec.align_event.empty()) {
      const auto anchor = first_named(*trace, spec.align_event);
      if (!anchor)
        return Error::bad_input(path + ": no event named '" + spec.align_event +
                                "' to align the ranks at (--trace-align)");
      f.shift_us = -*anchor;
    }
    shift_trace(*trace, f.shift_us);
    run.bytes += trace->bytes;
    f.trace = std::make_shared<const ImportedTrace>(std::move(*trace));
    files.push_back(std::move(f));
  }
  std::vector<int> info_ranks;
  for (const RankTrace& f : files) info_ranks.push_back(f.trace->rank);
  if (Status s = assign_ranks(files, info_ranks); !s) return s.error();
  std::stable_sort(files.begin(), files.end(),
                   [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; });
  run.ranks = std::move(files);
  return run;
}

Expected<UnitRuleSet> trace_rule_set(const TraceRunRequest& request) {
  if (!request.rules_json.empty()) return parse_unit_rules(request.rules_json, "rules");
  const std::string& spec = request.options.rules;
  const auto& names = builtin_unit_rule_set_names();
  if (std::find(names.begin(), names.end(), spec) != names.end()) return builtin_unit_rules(spec);
  auto rules = read_unit_rules(spec);
  if (!rules) return rules.error().with_context("--trace-rules");
  return rules;
}

Expected<MappedTrace> map_trace_run(const TraceRun& run, const TraceRunRequest& request, int stages,
                                    int replicas) {
  auto rules = trace_rule_set(request);
  if (!rules) return rules.error();
  std::optional<LaneMapping> user;
  if (!request.options.lanes_file.empty()) {
    auto lanes = read_lane_mapping(request.options.lanes_file);
    if (!lanes) return lanes.error();
    user = std::move(*lanes);
  }
  auto table = run_rank_table(run, request, stages, replicas);
  if (!table) return table.error();
  const int world = static_cast<int>(table->positions.size());
  std::vector<TraceFileMapping> files;
  std::set<int> by_rank;  // the ranks mapped by the table
  for (const RankTrace& f : run.ranks) {
    TraceFileMapping m;
    m.trace = f.trace.get();
    m.label = f.label;
    if (user) {
      m.lanes = *user;
    } else if (LaneMapping named = export_lane_mapping(*f.trace); !named.stage_of_lane.empty()) {
      m.lanes = std::move(named);  // our own export holds every rank in one file
    } else {
      if (f.rank >= world)
        return Error::bad_input(f.path + ": rank " + std::to_string(f.rank) + " (from its " +
                                rank_from_name(f.rank_from) +
                                ") is not a rank of the plan: it has " + std::to_string(world) +
                                " " + table->how);
      const RankPosition at = table->positions[static_cast<std::size_t>(f.rank)];
      if (at.replica < 0 || at.replica >= replicas || at.stage < 0 || at.stage >= stages)
        return Error::bad_input(f.path + ": rank " + std::to_string(f.rank) + " is replica " +
                                std::to_string(at.replica) + " stage " + std::to_string(at.stage) +
                                " in the rank table, outside the plan");
      m.lanes = rank_lane_mapping(*f.trace, at.replica, at.stage);
      by_rank.insert(f.rank);
    }
    files.push_back(std::move(m));
  }
  // A table of the run's own names every rank it ran: each needs its trace.
  if (!table->file.empty() && !by_rank.empty())
    for (int r = 0; r < world; ++r)
      if (!by_rank.count(r)) {
        const RankPosition at = table->positions[static_cast<std::size_t>(r)];
        return Error::bad_input(
            table->file + ": rank " + std::to_string(r) + " (stage " + std::to_string(at.stage) +
            ", replica " + std::to_string(at.replica) + ") has no trace among the run's " +
            std::to_string(run.ranks.size()) + " files: the run's ranks do not match it");
      }
  auto mapped = map_trace_files(files, *rules,
                                request.options.gpu_flows ? GpuTime::Flows : GpuTime::CpuRange);
  if (!mapped && run.table && run.table->torch_csv && rules->name != kTorchPPRules)
    return mapped.error().reworded(mapped.error().message + " (the run holds " + run.table->file +
                                   ", PyTorch's pipeline schedule: --trace-rules " + kTorchPPRules +
                                   ")");
  return mapped;
}

Expected<MappedTrace> map_plan_run(const TraceRun& run, const TraceRunRequest& request,
                                   const Plan& plan) {
  auto mapped = map_trace_run(run, request, plan.stages, plan.dp());
  if (!mapped) return mapped.error();
  if (mapped->rule_set == kTorchPPRules)
    if (Status s = apply_torch_pp_plan(run, plan, *mapped); !s) return s.error();
  return mapped;
}

Expected<TraceRunCheck> check_trace_run(const TraceRun& run, const TraceRunRequest& request,
                                        const Plan& plan, const SimResult& sim,
                                        const CostModel* cost) {
  auto mapped = map_plan_run(run, request, plan);
  if (!mapped) return mapped.error();
  TraceRunCheck out;
  const SimResult* priced = &sim;
  SimResult padded_sim;
  if (mapped->rule_set == kTorchPPRules && cost != nullptr && !plan.has_explicit_times()) {
    auto padded = torch_pp_padded_plan(plan);
    if (!padded) return padded.error();
    SimOptions options;
    options.memory_timeline = false;
    auto s = simulate(*padded, cost, options);
    if (!s) return s.error().with_context("the plan padded as torch runs it");
    padded_sim = std::move(*s);
    priced = &padded_sim;
    const Tokens rows = padded->replicas.empty() || padded->replicas[0].forward.empty()
                            ? 0
                            : padded->replicas[0].forward[0].tokens();
    out.priced_as = "every pack padded to " + std::to_string(rows) + " tokens, as torch runs it";
  }
  out.check = check_against_simulation(*mapped, *priced, trace_us_per_unit(*priced));
  out.mismatch = run_plan_mismatch(out.check);
  out.mapped = std::move(*mapped);
  return out;
}

Expected<std::shared_ptr<const CostModel>> trace_cost_model(
    const Plan& plan, const ConfigSpec& config, const std::shared_ptr<const CostModel>& simulated) {
  if (simulated) return simulated;
  return plan_cost_model(plan, config, /*model_requested=*/true);
}

Expected<TraceCalibration> calibrate_trace_run(const TraceRun& run, const TraceRunRequest& request,
                                               const Plan& plan, const CostModel& cost) {
  auto mapped = map_plan_run(run, request, plan);
  if (!mapped) return mapped.error();
  std::optional<Plan> padded;  // torch computed every pack padded: fit the rows it computed
  if (mapped->rule_set == kTorchPPRules && !plan.has_explicit_times()) {
    auto p = torch_pp_padded_plan(plan);
    if (!p) return p.error();
    padded = std::move(*p);
  }
  const Plan& priced = padded ? *padded : plan;
  std::string files;
  for (const RankTrace& f : run.ranks) files += (files.empty() ? "" : ", ") + f.path;
  auto cal = calibrate_from_units(*mapped, priced, cost,
                                  "trace " + files + " (rules " + mapped->rule_set + ")");
  if (!cal)
    return cal.error().with_context(run.ranks.size() == 1
                                        ? run.ranks.front().path
                                        : std::to_string(run.ranks.size()) + " trace files");
  return cal;
}

std::string run_units_mismatch(const TraceCheck& c) {
  const auto matched = static_cast<std::int64_t>(c.units.size());
  const std::int64_t planned = matched + c.only_simulated;
  if (matched == 0) return "no unit of the trace matches a pack of the plan";
  if (static_cast<double>(c.only_simulated + c.only_measured) >
      kRunUnmatchedLimit * static_cast<double>(planned))
    return std::to_string(matched) + " of the plan's " + std::to_string(planned) +
           " units are in the trace and " + std::to_string(c.only_measured) +
           " units of the trace have no pack in the plan";
  return {};
}

std::string run_plan_mismatch(const TraceCheck& c) {
  if (std::string units = run_units_mismatch(c); !units.empty()) return units;
  if (c.measured_makespan_us > 0.0 && c.simulated_makespan_us > 0.0) {
    const double ratio = c.simulated_makespan_us / c.measured_makespan_us;
    if (ratio > kRunScaleLimit || ratio < 1.0 / kRunScaleLimit) {
      char times[32];
      std::snprintf(times, sizeof times, " (%.3gx)", ratio);
      return "the trace runs " + format_time(c.measured_makespan_us * 1e-6) +
             " where the plan is simulated at " + format_time(c.simulated_makespan_us * 1e-6) +
             times;
    }
  }
  return {};
}

}  // namespace slimpack
