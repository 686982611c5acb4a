#include "sim/unit_graph.h"

#include "sim/dag.h"

namespace slimpack {
namespace {

UnitId unit_of(const sim_detail::DagNode& n) {
  return {n.stage, n.chunk, n.pass, n.pack};
}

}  // namespace

Expected<UnitGraph> unit_graph(const Plan& plan, int replica, const CostModel* cost) {
  if (replica < 0 || replica >= plan.dp())
    return Error::bad_input("replica " + std::to_string(replica) + " is not in the plan");
  auto dag = sim_detail::build_replica_dag(plan, replica, cost);
  if (!dag) return dag.error();
  UnitGraph g;
  g.stages = dag->stages;
  g.vchunks = dag->vchunks;
  // A compute op's message slot holds the P2P send it receives; the send's first slot is the op
  // that sends it (dag.h, NodePreds).
  for (const std::int32_t v : dag->stage_ops) {
    const auto i = static_cast<std::size_t>(v);
    const std::int32_t send = dag->times[i].preds.slot[sim_detail::kMessage];
    if (send < 0) continue;
    const std::int32_t from = dag->times[static_cast<std::size_t>(send)].preds.slot[0];
    if (from < 0) continue;
    g.producer.emplace(unit_of(dag->nodes[i]), unit_of(dag->nodes[static_cast<std::size_t>(from)]));
  }
  return g;
}

}  // namespace slimpack
