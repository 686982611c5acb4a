#pragma once
// The kernel tables of `slimpack trace summary` (trace/trace_kernel_table.h: HTA's kernel
// breakdown) as JSON and as the text table the CLI prints.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

#include "trace/trace_kernel_table.h"

namespace slimpack {

// {"total_us", "kinds": [ROW, ...], "names": [ROW, ...]} with ROW = {"name", "kind", "count",
// "total_us", "mean_us", "min_us", "max_us", "stddev_us", "share"}: every row.
nlohmann::json kernel_table_json(const KernelTable& t);

// The kinds, then the `top` largest names ("... N more" when there are more), indented by two
// spaces; empty for a table without rows or top 0.
std::string kernel_table_text(const KernelTable& t, std::size_t top);

}  // namespace slimpack
