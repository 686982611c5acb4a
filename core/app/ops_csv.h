#pragma once
// CSV of every scheduled compute op (one row per F/B/sync/optimizer op on every replica and stage),
// for spreadsheets and pandas: the explorer's File > Export and `slimpack simulate --ops-csv`.
#include <string>

#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

// Header: replica,stage,kind,pack,start,end,duration,tokens
// `pack` is 1-based (F1 = first forward pack, as in the Gantt labels), empty for sync/optimizer;
// `tokens` is the pack's token count (empty for sync/optimizer). Times in the result's unit.
std::string ops_csv(const Plan& plan, const SimResult& result);

}  // namespace slimpack
