#pragma once
// A measured run of PyTorch's pipeline runtime (`_PipelineScheduleRuntime`, which wraps every
// action in a profiler range `PP:<action>`: `PP:0F3`, `PP:1B3`, `PP:0SEND_F3`, ...) read against
// a plan: the table of its ranks (its CSV, or our schedule), and the check that every `PP:`
// range names an action of the plan on its own rank. The built-in `torch-pp` rules
// (core/trace/trace_units.h) make the compute ranges units; this renumbers their backward units
// from torch's micro-batches to the plan's backward packs (core/app/torch_pp_export.h's pairing).
#include "app/run_layout.h"
#include "app/trace_run.h"
#include "common/status.h"
#include "plan/plan.h"
#include "trace/trace_units.h"

namespace slimpack {

inline constexpr const char* kTorchPPRules = "torch-pp";

// The table a run layout found: a torch CSV read and checked (core/schedule/torch_pp_actions.h:
// torch_pp_stages), or a schedule's rank table. Errors name the file.
Expected<RunTable> read_run_table(const RunLayout& layout);

// For units mapped with the torch-pp rules: every `PP:` range (not Kineto's GPU copy) on a lane
// of a stage must be an action of PyTorch's syntax, of that lane's stage, of a micro-batch the
// plan has, and, with a torch CSV, in that rank's row; an overlapped pair (OVERLAP_F_B) is no
// unit of a plan. Errors (BadInput) name the file, the event and the reason. Then the backward
// units are renumbered as the plan's backward packs, and the plan must be one torch runs.
Status apply_torch_pp_plan(const TraceRun& run, const Plan& plan, MappedTrace& mapped);

}  // namespace slimpack
