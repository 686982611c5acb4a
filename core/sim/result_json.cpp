#include "sim/result_json.h"

#include <algorithm>

namespace slimpack {
namespace {

using Json = nlohmann::json;

Json critical_path_json(const CriticalPath& cp) {
  return Json{{"compute", cp.compute}, {"comm", cp.comm}, {"idle", cp.idle}};
}

Json ops_json(const std::vector<TimedOp>& ops) {
  Json out = Json::array();
  for (const TimedOp& op : ops)
    out.push_back(Json{{"kind", op_kind_name(op.kind)},
                       {"pass", op.pass == Pass::Forward ? "forward" : "backward"},
                       {"pack", op.pack},
                       {"chunk", op.chunk},
                       {"start", op.start},
                       {"end", op.end}});
  return out;
}

Json replica_json(const ReplicaResult& r, bool include_ops) {
  Json stages = Json::array();
  for (const StageResult& st : r.stages) {
    Json s{{"busy", st.busy},
           {"bubble_ratio", st.bubble_ratio},
           {"peak_memory_bytes", st.peak_memory_bytes}};
    if (include_ops) {
      s["ops"] = ops_json(st.ops);
      s["comm"] = ops_json(st.comm);
      Json mem = Json::array();
      for (const MemoryPoint& m : st.memory) mem.push_back(Json::array({m.time, m.bytes}));
      s["memory"] = std::move(mem);
    }
    stages.push_back(std::move(s));
  }
  return Json{{"makespan", r.makespan},
              {"finish", r.finish},
              {"tokens", r.tokens},
              {"critical_path", critical_path_json(r.critical_path)},
              {"stages", std::move(stages)}};
}

}  // namespace

nlohmann::json sim_result_to_json(const Plan& plan, const SimResult& result, bool include_ops) {
  Json replicas = Json::array();
  for (const ReplicaResult& r : result.replicas) replicas.push_back(replica_json(r, include_ops));

  Json stages = Json::array();
  for (int s = 0; s < plan.stages; ++s) {
    double busy = 0.0, bubble = 0.0, peak = 0.0;
    int counted = 0;
    for (const ReplicaResult& r : result.replicas) {
      if (static_cast<std::size_t>(s) >= r.stages.size()) continue;
      const StageResult& st = r.stages[static_cast<std::size_t>(s)];
      busy = std::max(busy, st.busy);
      bubble += st.bubble_ratio;
      peak = std::max(peak, st.peak_memory_bytes);
      ++counted;
    }
    stages.push_back(Json{{"stage", s},
                          {"busy", busy},
                          {"bubble_ratio", counted > 0 ? bubble / counted : 0.0},
                          {"peak_memory_bytes", peak}});
  }

  const ReplicaResult* slowest = nullptr;
  for (const ReplicaResult& r : result.replicas)
    if (!slowest || r.finish > slowest->finish) slowest = &r;

  return Json{{"makespan", result.makespan},
              {"bubble_ratio", result.bubble_ratio},
              {"iteration_time", result.iteration_time},
              {"tokens_per_second", result.tokens_per_second},
              {"mfu", result.mfu},
              {"legal", result.legal},
              {"legality_message", result.legality_message},
              {"peak_memory_bytes", result.peak_memory_bytes},
              {"stage_work_bound", result.stage_work_bound},
              {"gap_to_bound", result.gap_to_bound},
              {"time_unit", result.time_unit},
              {"total_tokens", plan.total_tokens()},
              {"pipeline", Json{{"stages", plan.stages},
                                {"dp", plan.dp()},
                                {"schedule", schedule_name(plan.schedule)},
                                {"warmup_extra", plan.warmup_extra},
                                {"vchunks", plan.vchunks}}},
              {"replicas", std::move(replicas)},
              {"stages", std::move(stages)},
              {"critical_path", slowest ? critical_path_json(slowest->critical_path)
                                        : critical_path_json(CriticalPath{})}};
}

}  // namespace slimpack
