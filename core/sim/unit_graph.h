#pragma once
// Which unit of pipeline work sends which other unit its message, as the simulator's DAG has it
// (core/sim/dag_build.cpp): forward k on virtual stage v receives the activations of forward k on
// virtual stage v - 1, backward k on v the gradients of backward k on v + 1 (interleaved plans:
// chunk c of stage s is virtual stage c * p + s). Read from the DAG itself, so an asymmetric plan
// or any schedule gets exactly the dependencies the simulator times. For analyses of measured
// runs against a plan (core/sim/pipeline_bubbles.h): they need the plan's structure, not its times.
#include <compare>
#include <map>

#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"

namespace slimpack {

// One forward or backward op of one replica: stage, virtual chunk, pass and pack (0-based).
struct UnitId {
  int stage = 0;
  int chunk = 0;
  Pass pass = Pass::Forward;
  int pack = 0;
  auto operator<=>(const UnitId&) const = default;
};

struct UnitGraph {
  int stages = 1;
  int vchunks = 1;  // chunks the stage order uses (1 unless interleaved applies)
  // Per unit that receives a message (activations or gradients from another virtual stage): the
  // unit that sends it. Units of the first virtual stage's forwards and of the last's backwards
  // are absent (they receive nothing).
  std::map<UnitId, UnitId> producer;
};

// The graph of `replica`. The DAG is built priced (packs with explicit times, else `cost`), so
// its errors are the simulator's: a pack with neither time nor cost model is BadInput naming it.
Expected<UnitGraph> unit_graph(const Plan& plan, int replica, const CostModel* cost);

}  // namespace slimpack
