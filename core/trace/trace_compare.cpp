#include "trace/trace_compare.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace slimpack {
namespace {

struct NameTotals {
  std::int64_t count = 0;
  double total_us = 0.0;
};

using TotalsByName = std::unordered_map<std::string, NameTotals>;

// Sums one trace's complete events by (folded) name. Work is per distinct interned name, not per
// event, for the folding and the category test: a trace has millions of events but few names.
TotalsByName totals_by_name(const ImportedTrace& trace, const TraceCompareOptions& options,
                            TraceCompareSide& side) {
  std::vector<std::string> key_of(trace.names.size());
  std::vector<char> category_ok(trace.names.size(), 1);
  for (std::size_t i = 0; i < trace.names.size(); ++i) {
    key_of[i] = options.fold_digits ? fold_digits(trace.names[i]) : trace.names[i];
    if (!options.category.empty()) category_ok[i] = trace.names[i] == options.category;
  }
  std::vector<NameTotals> by_index(trace.names.size());
  for (const TraceLane& lane : trace.lanes) {
    for (const TraceEvent& e : lane.events) {
      if (!category_ok[static_cast<std::size_t>(e.cat)]) continue;
      NameTotals& t = by_index[static_cast<std::size_t>(e.name)];
      ++t.count;
      t.total_us += e.dur_us;
    }
  }
  TotalsByName totals;
  for (std::size_t i = 0; i < by_index.size(); ++i) {
    if (by_index[i].count == 0) continue;
    NameTotals& t = totals[key_of[i]];
    t.count += by_index[i].count;
    t.total_us += by_index[i].total_us;
    side.events += by_index[i].count;
    side.total_us += by_index[i].total_us;
  }
  side.source = trace.source;
  side.names = static_cast<std::int64_t>(totals.size());
  side.lanes = static_cast<std::int64_t>(trace.lanes.size());
  side.span_us = trace.span_us;
  return totals;
}

NameDiffStatus status_of(const NameDiff& d, double tolerance) {
  if (d.count_a == 0) return NameDiffStatus::Added;
  if (d.count_b == 0) return NameDiffStatus::Removed;
  const double larger = std::max(std::abs(d.total_us_a), std::abs(d.total_us_b));
  if (std::abs(d.delta_us) <= tolerance * larger) return NameDiffStatus::Unchanged;
  return d.delta_us > 0.0 ? NameDiffStatus::Longer : NameDiffStatus::Shorter;
}

}  // namespace

const char* name_diff_status_name(NameDiffStatus s) {
  switch (s) {
    case NameDiffStatus::Added:
      return "added";
    case NameDiffStatus::Removed:
      return "removed";
    case NameDiffStatus::Longer:
      return "longer";
    case NameDiffStatus::Shorter:
      return "shorter";
    case NameDiffStatus::Unchanged:
      return "unchanged";
  }
  return "unchanged";
}

std::string fold_digits(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  bool in_digits = false;
  for (const char c : name) {
    const bool digit = c >= '0' && c <= '9';
    if (digit && !in_digits) out += 'N';
    if (!digit) out += c;
    in_digits = digit;
  }
  return out;
}

TraceComparison compare_traces(const ImportedTrace& a, const ImportedTrace& b,
                               const TraceCompareOptions& options) {
  TraceComparison result;
  const TotalsByName in_a = totals_by_name(a, options, result.a);
  const TotalsByName in_b = totals_by_name(b, options, result.b);
  result.names.reserve(in_a.size() + in_b.size());
  for (const auto& [name, t] : in_a) {
    NameDiff d;
    d.name = name;
    d.count_a = t.count;
    d.total_us_a = t.total_us;
    if (auto it = in_b.find(name); it != in_b.end()) {
      d.count_b = it->second.count;
      d.total_us_b = it->second.total_us;
    }
    result.names.push_back(std::move(d));
  }
  for (const auto& [name, t] : in_b) {
    if (in_a.count(name) != 0) continue;
    NameDiff d;
    d.name = name;
    d.count_b = t.count;
    d.total_us_b = t.total_us;
    result.names.push_back(std::move(d));
  }
  for (NameDiff& d : result.names) {
    d.delta_us = d.total_us_b - d.total_us_a;
    d.status = status_of(d, options.tolerance);
  }
  std::sort(result.names.begin(), result.names.end(), [](const NameDiff& x, const NameDiff& y) {
    const double ax = std::abs(x.delta_us), ay = std::abs(y.delta_us);
    return ax != ay ? ax > ay : x.name < y.name;
  });
  return result;
}

}  // namespace slimpack
