#pragma once
// HTA's kernel breakdown (get_gpu_kernel_breakdown): the GPU operations of a window grouped by
// name and by kind (computation, communication, memory), with their count, total, mean, min,
// max and standard deviation of duration and their share of the window's GPU operation time.
// `slimpack trace summary` gives one table per rank and step and one for the whole trace
// (trace_summary.h; docs/file-formats-traces.md, "Summary").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_gpu.h"
#include "trace/trace_import.h"

namespace slimpack {

// One name, or one kind, of GPU operation.
struct KernelRow {
  std::string name;  // the operation's name (HTA's short name with short_names); a kind: its name
  GpuOpKind kind = GpuOpKind::Computation;
  std::int64_t count = 0;
  double total_us = 0.0;  // sum of the durations (operations on several streams each count)
  double mean_us = 0.0;
  double min_us = 0.0;
  double max_us = 0.0;
  double stddev_us = 0.0;  // sample standard deviation (n - 1), 0 for one operation, as HTA's
  double share = 0.0;      // total_us / KernelTable::total_us (0..1)
};

struct KernelTable {
  double total_us = 0.0;         // sum of every operation's duration in the table
  std::vector<KernelRow> kinds;  // the kinds present, largest total first
  std::vector<KernelRow> names;  // per (kind, name), largest total first, then kind, then name
};

// The table of ops[first, last) (gpu_ops(trace), trace_gpu.h). With short_names, names are
// shortened as HTA's shorten_name (trace_compare.h short_name), so instances of one template
// are one row.
KernelTable kernel_table(const ImportedTrace& trace, const std::vector<GpuOp>& ops,
                         std::size_t first, std::size_t last, bool short_names = false);

}  // namespace slimpack
