#include "app/torch_pp_run.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "app/torch_pp_export.h"
#include "common/json_util.h"

namespace slimpack {
namespace {

Expected<RunTable> schedule_table(const std::string& path) {
  auto j = json_util::parse_file(path);
  if (!j) return j.error();
  RunTable t;
  t.file = path;
  const auto ranks = j->find("ranks");
  if (ranks == j->end() || !ranks->is_array())
    return Error::bad_input(path + ": $.ranks: expected the schedule's array of ranks");
  for (std::size_t i = 0; i < ranks->size(); ++i) {
    const std::string where = "$.ranks[" + std::to_string(i) + "]";
    auto rank = json_util::get_int((*ranks)[i], "rank", where);
    auto replica = json_util::get_int((*ranks)[i], "replica", where);
    auto stage = json_util::get_int((*ranks)[i], "stage", where);
    for (const auto* v : {&rank, &replica, &stage})
      if (!*v) return v->error().with_context(path);
    if (*rank != static_cast<std::int64_t>(i))
      return Error::bad_input(path + ": " + where + ".rank: ranks are listed in order (0, 1, ...)");
    t.ranks.push_back({static_cast<int>(*replica), static_cast<int>(*stage)});
  }
  return t;
}

const std::string& name_of(const ImportedTrace& trace, std::int32_t id) {
  return trace.names[static_cast<std::size_t>(id)];
}

std::string range_list(int n) {
  return n == 1 ? "micro-batch 0" : "micro-batches 0-" + std::to_string(n - 1);
}

// The first reason the range `action` on a lane of `stage` names no unit of the plan, or "".
std::string range_problem(const TorchPPAction& action, int stage, const Plan& plan, int packs,
                          const RunTable* csv_table, int pipeline_rank) {
  if (action.type == TorchPPType::OverlapFB)
    return "an overlapped forward and backward (OVERLAP_F_B, a DualPipeV schedule): no plan "
           "runs that";
  if (action.stage >= plan.stages)
    return "names stage " + std::to_string(action.stage) + ", and the plan has " +
           std::to_string(plan.stages) + " stages";
  if (action.stage != stage)
    return "is an action of stage " + std::to_string(action.stage) + ", and this rank runs stage " +
           std::to_string(stage) + (csv_table ? " (" + csv_table->file + ")" : "");
  if (action.microbatch >= packs)
    return "names micro-batch " + std::to_string(action.microbatch) + ", and the plan has " +
           std::to_string(packs) + " packs per replica (" + range_list(packs) + ")";
  if (csv_table && torch_pp_is_compute(action.type) && pipeline_rank >= 0) {
    const auto& row = csv_table->rows[static_cast<std::size_t>(pipeline_rank)];
    if (std::find(row.begin(), row.end(), action) == row.end())
      return "is not in row " + std::to_string(pipeline_rank + 1) + " (rank " +
             std::to_string(pipeline_rank) + ") of " + csv_table->file;
  }
  return {};
}

}  // namespace

Expected<RunTable> read_run_table(const RunLayout& layout) {
  if (!layout.torch_csv) return schedule_table(layout.table_file);
  auto table = read_torch_pp_csv(layout.table_file);
  if (!table) return table.error();
  auto stages = torch_pp_stages(*table);
  if (!stages) return stages.error();
  RunTable t;
  t.file = layout.table_file;
  t.torch_csv = true;
  t.stage_of_rank = std::move(stages->stage_of_rank);
  t.microbatches = stages->microbatches;
  t.rows = std::move(table->rows);
  t.pipeline_outermost = layout.torchtitan;
  return t;
}

Status apply_torch_pp_plan(const TraceRun& run, const Plan& plan, MappedTrace& mapped) {
  const int packs = plan.replicas.empty() ? 0 : static_cast<int>(plan.replicas[0].forward.size());
  const RunTable* csv = run.table && run.table->torch_csv ? &*run.table : nullptr;
  for (const LaneActivity& lane : mapped.lanes) {
    if (lane.stage < 0) continue;
    const RankTrace& file = run.ranks[static_cast<std::size_t>(lane.source)];
    const ImportedTrace& trace = *file.trace;
    // The pipeline rank of the file, for the CSV's row.
    int pipeline_rank = -1;
    if (csv) {
      const int rows = static_cast<int>(csv->stage_of_rank.size());
      const int replicas = std::max(1, plan.dp());
      pipeline_rank = csv->pipeline_outermost ? file.rank / replicas : file.rank % rows;
    }
    for (const TraceEvent& e : trace.lanes[lane.lane].events) {
      const std::string& name = name_of(trace, e.name);
      if (name.rfind("PP:", 0) != 0 || name_of(trace, e.cat) == "gpu_user_annotation") continue;
      const std::string where =
          file.path + ": traceEvents[" + std::to_string(e.index) + "]: " + name + " ";
      auto action = parse_torch_pp_action(std::string_view(name).substr(3));
      if (!action)
        return Error::bad_input(
            where + "is not a range of torch's pipeline runtime: " + action.error().message);
      const std::string why = range_problem(*action, lane.stage, plan, packs, csv, pipeline_rank);
      if (!why.empty()) return Error::bad_input(where + why + ": it names no unit of the plan");
    }
  }
  auto layout = torch_pp_layout(plan);
  if (!layout)
    return Error::bad_input("the run is a run of torch's pipeline runtime (rules " +
                            std::string(kTorchPPRules) + "), but " + layout.error().message);
  std::map<int, int> backward_pack;  // torch micro-batch -> the plan's backward pack
  for (std::size_t k = 0; k < layout->backward_of.size(); ++k)
    backward_pack[layout->backward_of[k]] = static_cast<int>(k);
  for (MeasuredUnit& u : mapped.units) {
    if (u.pass != Pass::Backward) continue;
    const auto it = backward_pack.find(u.pack);
    if (it == backward_pack.end())
      return Error::bad_input(mapped.sources[static_cast<std::size_t>(u.source)] +
                              ": traceEvents[" + std::to_string(u.event) +
                              "]: " + mapped.name_of(u) + " names no backward pack of the plan");
    u.pack = it->second;
  }
  std::sort(mapped.units.begin(), mapped.units.end(),
            [](const MeasuredUnit& a, const MeasuredUnit& b) {
              if (a.replica != b.replica) return a.replica < b.replica;
              if (a.stage != b.stage) return a.stage < b.stage;
              if (a.pass != b.pass) return a.pass < b.pass;
              if (a.pack != b.pack) return a.pack < b.pack;
              return a.start_us < b.start_us;
            });
  return {};
}

}  // namespace slimpack
