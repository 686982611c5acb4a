#pragma once
// A runtime that waits for a unit's message inside the unit's own range. PyTorch's pipeline
// runtime (`_PipelineScheduleRuntime`) does: its FORWARD action waits for the activations its
// RECV_F posted, its BACKWARD for the gradients of RECV_B, both inside the action's `PP:1F3` /
// `PP:1B3` range, before the stage's first operator runs. So the part of such a range before its
// first nested event (on its lane) is the receive wait, not work: it ends when the message was
// there.
#include <vector>

#include "trace/trace_import.h"
#include "trace/trace_units.h"

namespace slimpack {

// For each unit (replica, stage, pass, pack) of `units` (CPU ranges, traces by
// MeasuredUnit::source), its first event's leading part, from the range's start to the first event
// nested in it on its lane, when there is one and it starts later: that part is returned as a
// receive wait of the unit (a MeasuredUnit of the same key, as core/trace/measured_timeline.h's
// receive ranges), and the event's unit starts where the nested event starts. Units whose range
// has no nested event are left as they are.
MappedTrace split_leading_waits(const std::vector<const ImportedTrace*>& traces,
                                MappedTrace& units);

}  // namespace slimpack
