#pragma once
// A compute-only torch pipeline schedule lowered to the actions `_PipelineScheduleRuntime` runs:
// what its `_load_csv(format="compute_only")` makes of it with the runtime's defaults
// (`_prepare_schedule_with_comms`: `_add_unshard_reshard` with max_active_stages 3,
// `_add_reduce_grad` with its wait right after the reduction, `_add_send_recv`, `_add_wait_send`;
// no deferred receives, no send budget). Written as a `compute_comms` CSV this runs exactly as the
// compute-only file does, and can be edited by hand (tests/cli/torch_pp_load_csv.py compares it
// with torch's own lowering).
#include "common/status.h"
#include "schedule/torch_pp_actions.h"

namespace slimpack {

// `compute` holds only F, I, W and B actions, one stage per rank (torch_pp_stages); the stage of
// each rank is `stage_of_rank`. Errors when no rank can make progress (a malformed order).
Expected<TorchPPRows> lower_torch_pp(const TorchPPRows& compute,
                                     const std::vector<int>& stage_of_rank, int microbatches);

}  // namespace slimpack
