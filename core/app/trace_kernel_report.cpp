#include "app/trace_kernel_report.h"

#include <cstdio>

namespace slimpack {
namespace {

nlohmann::json row_json(const KernelRow& r) {
  return {{"name", r.name},       {"kind", gpu_op_kind_name(r.kind)},
          {"count", r.count},     {"total_us", r.total_us},
          {"mean_us", r.mean_us}, {"min_us", r.min_us},
          {"max_us", r.max_us},   {"stddev_us", r.stddev_us},
          {"share", r.share}};
}

std::string row_text(const KernelRow& r, bool with_name) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-13s %8lld %12.3f %10.3f %10.3f %10.3f %6.1f%%",
                gpu_op_kind_name(r.kind), static_cast<long long>(r.count), r.total_us, r.mean_us,
                r.min_us, r.max_us, 100.0 * r.share);
  std::string out = buf;
  if (with_name) out += "  " + r.name;
  return out + "\n";
}

}  // namespace

nlohmann::json kernel_table_json(const KernelTable& t) {
  nlohmann::json kinds = nlohmann::json::array(), names = nlohmann::json::array();
  for (const KernelRow& r : t.kinds) kinds.push_back(row_json(r));
  for (const KernelRow& r : t.names) names.push_back(row_json(r));
  return {{"total_us", t.total_us}, {"kinds", kinds}, {"names", names}};
}

std::string kernel_table_text(const KernelTable& t, std::size_t top) {
  if (t.names.empty() || top == 0) return "";
  std::string out =
      "  kernels: per kind and name (share: of the summed durations of the GPU operations)\n";
  char head[160];
  std::snprintf(head, sizeof head, "  %-13s %8s %12s %10s %10s %10s %7s  %s\n", "kind", "count",
                "total", "mean", "min", "max", "share", "name");
  out += head;
  for (const KernelRow& r : t.kinds) out += row_text(r, false);
  for (std::size_t i = 0; i < t.names.size() && i < top; ++i) out += row_text(t.names[i], true);
  if (t.names.size() > top)
    out += "  ... " + std::to_string(t.names.size() - top) + " more names (--kernels N, --json)\n";
  return out;
}

}  // namespace slimpack
