#pragma once
// Where a measured run's bubbles come from (`slimpack trace pipeline RUN --plan PLAN` and the
// explorer's Bubbles view call this): the run's units mapped as `simulate --check-trace` maps
// them (core/app/trace_run.h), placed in the plan's dependency graph as the simulator builds it
// (core/sim/unit_graph.h), their messages read from the run's receive or send ranges
// (core/trace/measured_timeline.h) or, for PyTorch's runtime, from its units' own ranges, and every
// idle interval of every stage classified with its critical path (core/sim/pipeline_bubbles.h); the
// simulated plan's timeline gets the same analysis beside it.
#include <cstdint>
#include <string>
#include <vector>

#include "app/trace_run.h"
#include "common/cancel.h"
#include "sim/pipeline_bubbles.h"

namespace slimpack {

struct TracePipeline {
  std::string rule_set;    // the unit rules the run was mapped with
  std::int64_t units = 0;  // measured units (events) mapped
  // Where arrivals came from: "receives" (wait RECV ranges), "waits inside units" (torch-pp: each
  // unit's range before its first operator, core/trace/unit_waits.h), "sends", or "" (none).
  std::string messages;
  std::vector<LaneActivity> lanes;  // the run's lanes as mapped (those with units carry them)
  PipelineBubbles measured;         // on the run's clock: window from its first unit
  PipelineBubbles simulated;        // the plan's simulation `sim`, in microseconds
};

// `cost` prices the plan's DAG for its structure (null for explicit-time plans, as simulate
// takes it); `sim` is the simulation of `plan` the run is held against. Errors (BadInput, naming
// the file): the mapping's (no event matches the rules, a rank outside the plan), a unit of the
// run that is no unit of the plan ("rank1.json#40 F13: no forward pack 13 on stage 1 ..."), or
// more than kRunUnmatchedLimit of the plan's units missing from the run.
Expected<TracePipeline> trace_pipeline_run(const TraceRun& run, const TraceRunRequest& request,
                                           const Plan& plan, const SimResult& sim,
                                           const CostModel* cost,
                                           const CancelToken& cancel = CancelToken::none());

}  // namespace slimpack
