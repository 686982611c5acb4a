#include "trace/trace_kernel_table.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "trace/trace_compare.h"

namespace slimpack {
namespace {

// Running count, sum, min, max and Welford's sum of squared deviations.
struct Accumulator {
  std::int64_t count = 0;
  double total = 0.0, min = 0.0, max = 0.0, mean = 0.0, m2 = 0.0;

  void add(double d) {
    ++count;
    total += d;
    min = count == 1 ? d : std::min(min, d);
    max = count == 1 ? d : std::max(max, d);
    const double delta = d - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (d - mean);
  }
};

KernelRow row_of(std::string name, GpuOpKind kind, const Accumulator& a, double table_total) {
  KernelRow r;
  r.name = std::move(name);
  r.kind = kind;
  r.count = a.count;
  r.total_us = a.total;
  r.mean_us = a.count > 0 ? a.total / static_cast<double>(a.count) : 0.0;
  r.min_us = a.min;
  r.max_us = a.max;
  r.stddev_us = a.count > 1 ? std::sqrt(a.m2 / static_cast<double>(a.count - 1)) : 0.0;
  r.share = table_total > 0.0 ? a.total / table_total : 0.0;
  return r;
}

bool larger_first(const KernelRow& a, const KernelRow& b) {
  return std::tie(b.total_us, a.kind, a.name) < std::tie(a.total_us, b.kind, b.name);
}

}  // namespace

KernelTable kernel_table(const ImportedTrace& trace, const std::vector<GpuOp>& ops,
                         std::size_t first, std::size_t last, bool short_names) {
  // Keyed by the interned name, shortened once per distinct name.
  std::map<std::pair<GpuOpKind, std::int32_t>, Accumulator> by_id;
  std::map<GpuOpKind, Accumulator> by_kind;
  KernelTable t;
  for (std::size_t i = first; i < last && i < ops.size(); ++i) {
    const GpuOp& op = ops[i];
    const TraceEvent& e =
        trace.lanes[static_cast<std::size_t>(op.lane)].events[static_cast<std::size_t>(op.event)];
    const double d = op.end_us - op.start_us;
    by_id[{op.kind, e.name}].add(d);
    by_kind[op.kind].add(d);
    t.total_us += d;
  }
  for (const auto& [kind, a] : by_kind)
    t.kinds.push_back(row_of(gpu_op_kind_name(kind), kind, a, t.total_us));
  // Short names can join several interned names into one row.
  std::map<std::pair<GpuOpKind, std::string>, Accumulator> by_name;
  std::map<std::pair<GpuOpKind, std::string>, std::vector<const Accumulator*>> parts;
  for (const auto& [key, a] : by_id) {
    const std::string& full = trace.names[static_cast<std::size_t>(key.second)];
    parts[{key.first, short_names ? short_name(full) : full}].push_back(&a);
  }
  for (const auto& [key, list] : parts) {
    Accumulator sum;
    for (const Accumulator* a : list) {
      // Chan et al.'s pairwise combination of two running means and squared deviations.
      if (sum.count == 0) {
        sum = *a;
        continue;
      }
      const double n1 = static_cast<double>(sum.count), n2 = static_cast<double>(a->count);
      const double delta = a->mean - sum.mean;
      sum.m2 += a->m2 + delta * delta * n1 * n2 / (n1 + n2);
      sum.mean += delta * n2 / (n1 + n2);
      sum.count += a->count;
      sum.total += a->total;
      sum.min = std::min(sum.min, a->min);
      sum.max = std::max(sum.max, a->max);
    }
    t.names.push_back(row_of(key.second, key.first, sum, t.total_us));
  }
  std::sort(t.kinds.begin(), t.kinds.end(), larger_first);
  std::sort(t.names.begin(), t.names.end(), larger_first);
  return t;
}

}  // namespace slimpack
