#include "app/trace_compare_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/format.h"

namespace slimpack {
namespace {

// An integer where the value is one (whole-trace counts), else the number.
nlohmann::json count_json(double v) {
  if (std::floor(v) == v && std::abs(v) < 9.0e15) return static_cast<std::int64_t>(v);
  return v;
}

std::string count_text(double v) {
  char buf[64];
  if (std::floor(v) == v && std::abs(v) < 9.0e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

nlohmann::json side_json(const TraceCompareSide& s) {
  return {{"file", s.source},        {"events", s.events},   {"counted", s.counted},
          {"names", s.names},        {"lanes", s.lanes},     {"span_us", s.span_us},
          {"total_us", s.total_us},  {"self_us", s.self_us}, {"steps", s.steps},
          {"unmatched", s.unmatched}};
}

std::string time_or_dash(double count, double us) {
  return count == 0 ? std::string("-") : format_time(us * 1e-6);
}

std::string signed_time(double us) {
  const std::string sign = us > 0 ? "+" : (us < 0 ? "-" : "");
  return sign + format_time(std::abs(us) * 1e-6);
}

std::string side_text(const char* which, const TraceCompareSide& s) {
  std::string t = std::string(which) + "  " + s.source + ": " + std::to_string(s.events) +
                  " events, " + std::to_string(s.counted) + " compared, " +
                  std::to_string(s.names) + " names, sum of durations " +
                  format_time(s.total_us * 1e-6) + " (self " + format_time(s.self_us * 1e-6) +
                  "), span " + format_time(s.span_us * 1e-6);
  if (!s.steps.empty()) {
    t += "; per step, mean over " + std::to_string(s.steps.size()) +
         (s.steps.size() == 1 ? " step (" : " steps (");
    for (std::size_t i = 0; i < s.steps.size(); ++i)
      t += (i ? ", " : "") + std::string("#") + std::to_string(s.steps[i]);
    t += ")";
  }
  t += "\n";
  if (s.unmatched > 0)
    t += "   warning: " + unmatched_events_text(s.unmatched) + " (not compared)\n";
  return t;
}

}  // namespace

Expected<TraceComparison> run_trace_compare(const ImportedTrace& a, const ImportedTrace& b,
                                            const TraceCompareOptions& options) {
  if (Status s = check_compare_category(a, b, options.category); !s) return s.error();
  return compare_traces(a, b, options);
}

Expected<TraceComparison> compare_trace_files(const std::string& a, const std::string& b,
                                              const TraceCompareOptions& options,
                                              const CancelToken& cancel) {
  const TraceImportOptions no_args{.keep_events = true, .keep_args = false};  // not compared
  auto ta = import_chrome_trace(a, no_args, cancel);
  if (!ta) return ta.error();
  auto tb = import_chrome_trace(b, no_args, cancel);
  if (!tb) return tb.error();
  return run_trace_compare(*ta, *tb, options);
}

nlohmann::json trace_comparison_json(const TraceComparison& c, const TraceCompareOptions& options) {
  nlohmann::json names = nlohmann::json::array();
  for (const NameDiff& d : c.names) {
    names.push_back({{"name", d.name},
                     {"count_a", count_json(d.count_a)},
                     {"count_b", count_json(d.count_b)},
                     {"total_us_a", d.total_us_a},
                     {"total_us_b", d.total_us_b},
                     {"self_us_a", d.self_us_a},
                     {"self_us_b", d.self_us_b},
                     {"delta_us", d.delta_us},
                     {"delta_self_us", d.delta_self_us},
                     {"status", name_diff_status_name(d.status)}});
  }
  return {{"a", side_json(c.a)},
          {"b", side_json(c.b)},
          {"category", options.category},
          {"fold_digits", options.fold_digits},
          {"short_names", options.short_names},
          {"include_profiler_span", options.include_profiler_span},
          {"steps", options.steps ? nlohmann::json(step_range_text(*options.steps))
                                  : nlohmann::json(nullptr)},
          {"time", options.by == CompareTime::Self ? "self" : "total"},
          {"tolerance", options.tolerance},
          {"note", c.note.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.note)},
          {"names", names}};
}

std::string trace_comparison_text(const TraceComparison& c, const TraceCompareOptions& options,
                                  std::size_t limit) {
  // Nested events (an annotation around its kernels) each count in the sum of durations, so it
  // can exceed the span; the self time counts each moment of a lane once.
  std::string out = side_text("A", c.a) + side_text("B", c.b);
  if (!c.note.empty()) out += "note: " + c.note + "\n";
  out += "\n";
  char line[512];
  const bool self = options.by == CompareTime::Self;
  std::snprintf(line, sizeof line, "%-48s %8s %8s %11s %11s %11s %11s %12s  %s\n", "name",
                "count A", "count B", "total A", "total B", "self A", "self B",
                self ? "self delta" : "delta", "status");
  out += line;
  const std::size_t n = std::min(limit, c.names.size());
  for (std::size_t i = 0; i < n; ++i) {
    const NameDiff& d = c.names[i];
    // Long names lose their middle: the end tells GEMM tiles and template instances apart.
    const std::string name = d.name.size() > 48
                                 ? d.name.substr(0, 22) + "..." + d.name.substr(d.name.size() - 23)
                                 : d.name;
    std::snprintf(
        line, sizeof line, "%-48s %8s %8s %11s %11s %11s %11s %12s  %s\n", name.c_str(),
        count_text(d.count_a).c_str(), count_text(d.count_b).c_str(),
        time_or_dash(d.count_a, d.total_us_a).c_str(),
        time_or_dash(d.count_b, d.total_us_b).c_str(), time_or_dash(d.count_a, d.self_us_a).c_str(),
        time_or_dash(d.count_b, d.self_us_b).c_str(),
        signed_time(self ? d.delta_self_us : d.delta_us).c_str(), name_diff_status_name(d.status));
    out += line;
  }
  if (c.names.size() > n)
    out += "... " + std::to_string(c.names.size() - n) +
           " more names (--limit N, or --json for all)\n";
  return out;
}

}  // namespace slimpack
