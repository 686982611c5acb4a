#pragma once
// CSV of every scheduled compute op (one row per F/B/sync/optimizer op on every replica and stage),
// for spreadsheets and pandas: the explorer's File > Export and `slimpack simulate --ops-csv`.
#include <string>

#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

// Header: replica,stage,kind,pack,name,start,end,duration,tokens
// `pack` is the pack's 0-based index, as every `pack` field of the JSON outputs, schedules and the
// Chrome-trace export's args; `name` is the name people see (pack_name(): "F1" for index 0, the
// Gantt's label and the trace event's name). Both are empty for sync/optimizer, and so is
// `tokens`, the pack's token count. Times in the result's unit.
std::string ops_csv(const Plan& plan, const SimResult& result);

}  // namespace slimpack
