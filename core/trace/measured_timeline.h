#pragma once
// A measured run's units (core/trace/trace_units.h) as a pipeline timeline for the bubble analysis
// (core/sim/pipeline_bubbles.h): each unit placed in the plan's dependency graph
// (core/sim/unit_graph.h), with when its message was complete when the trace says so.
//
// Messages are read from two kinds of ranges, mapped to stages like units:
//   receives  `wait RECV_F3` / `wait RECV_B3` on the receiving stage (our runtime, slimpack-run:
//             an irecv waited for at once, so the range ends when the message is there);
//   sends     `send F3` / `send B3` of category p2p on the sending stage (our `simulate --trace`
//             export: the transfer itself, which ends when the message arrives).
// A receive names the unit it feeds; a send names the unit that produced it. Without either the
// message's arrival is not known (no transfer time can be told apart).
//
// Several events of one unit (stage, pass, pack) are one unit from the first start to the last
// end; on an interleaved plan (v chunks) the k-th of n events of a pack goes to chunk k * v / n
// (forwards in chunk order, backwards in reverse), as the schedule runs them.
#include <vector>

#include "sim/pipeline_timeline.h"
#include "trace/trace_units.h"

namespace slimpack {

// The rules that find the message ranges above (pack numbers 1-based, as units).
UnitRuleSet receive_rules();
UnitRuleSet send_rules();

// `graphs`: one per replica of the plan. `receives` / `sends`: the message ranges mapped by the
// rules above, or null. The window is the first unit's start to the last unit's end (over every
// replica); times stay on the trace's clock (PipelineTimeline::origin_us is the first start).
PipelineTimeline measured_timeline(const MappedTrace& units, const std::vector<UnitGraph>& graphs,
                                   int stages, const MappedTrace* receives = nullptr,
                                   const MappedTrace* sends = nullptr);

}  // namespace slimpack
