#include "sim/pipeline_timeline.h"

#include <map>
#include <string>
#include <utility>

#include "plan/pack_name.h"

namespace slimpack {

std::string unit_label(const UnitId& id) {
  std::string s = pack_name(id.pass, id.pack);
  if (id.chunk > 0) s += ".c" + std::to_string(id.chunk);
  return s;
}

PipelineTimeline simulated_timeline(const SimResult& sim, const std::vector<UnitGraph>& graphs,
                                    double us_per_unit) {
  PipelineTimeline t;
  t.replicas = static_cast<int>(sim.replicas.size());
  t.stages = sim.replicas.empty() ? 1 : static_cast<int>(sim.replicas.front().stages.size());
  t.origin_us = 0.0;
  t.end_us = sim.makespan * us_per_unit;
  for (std::size_t r = 0; r < sim.replicas.size(); ++r) {
    const auto replica = static_cast<int>(r);
    std::map<UnitId, std::int32_t> index;  // of this replica's units
    std::map<UnitId, double> delivered;    // P2P send end, by the sending unit
    for (const StageResult& st : sim.replicas[r].stages) {
      for (const TimedOp& op : st.ops) {
        if (op.kind != OpKind::Forward && op.kind != OpKind::Backward) continue;
        TimelineUnit u;
        u.replica = replica;
        u.id = {op.stage, op.chunk, op.pass, op.pack};
        u.start_us = op.start * us_per_unit;
        u.end_us = op.end * us_per_unit;
        const auto i = static_cast<std::int32_t>(t.units.size());
        index[u.id] = i;
        t.busy.push_back({replica, op.stage, u.start_us, u.end_us, i});
        t.units.push_back(u);
      }
      for (const TimedOp& op : st.comm)
        if (op.kind == OpKind::P2P)
          delivered[{op.stage, op.chunk, op.pass, op.pack}] = op.end * us_per_unit;
    }
    if (r >= graphs.size()) continue;
    for (auto& [id, i] : index) {
      const auto p = graphs[r].producer.find(id);
      if (p == graphs[r].producer.end()) continue;
      TimelineUnit& u = t.units[static_cast<std::size_t>(i)];
      if (const auto from = index.find(p->second); from != index.end()) u.producer = from->second;
      if (const auto d = delivered.find(p->second); d != delivered.end()) u.received_us = d->second;
    }
  }
  return t;
}

}  // namespace slimpack
