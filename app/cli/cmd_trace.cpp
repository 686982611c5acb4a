// slimpack trace info FILE...       counts of Chrome / Kineto traces (events, phases, lanes, span)
// slimpack trace compare A B        difference of two traces by event name (count, total, delta)
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "thread_pool.h"
#include "trace/trace_compare.h"
#include "trace/trace_import.h"

namespace slimpack::cli {
namespace {

constexpr const char* kTraceUsage =
    "usage: slimpack trace info FILE... [--json FILE]\n"
    "       slimpack trace compare A B [--json FILE] [--category CAT] [--fold-digits]\n\n"
    "Reads Chrome Trace Event files (plain or .gz; our --trace exports, Kineto, PyTorch "
    "profiler).\n"
    "  info     event counts per phase, lanes and time span of each file\n"
    "  compare  complete events of A and B by name: count and total duration in each, the delta\n"
    "           and a status (added, removed, longer, shorter, unchanged)\n\n"
    "Run 'slimpack trace info --help' or 'slimpack trace compare --help' for their options.\n";

int trace_info(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"json", "FILE",
       "write {file, events, by_phase, lanes, span_us[, unterminated]} ('-' = stdout; an array "
       "for several files)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace info", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack trace info FILE... [--json FILE]",
                    "Prints event counts per phase, lanes and time span of trace files.", specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().empty())
    return report_error("trace info", Error::bad_input("no trace file given"));
  nlohmann::json all = nlohmann::json::array();
  // Counting only (no events kept), the files in parallel; the first failure in order is reported.
  TraceImportOptions opt;
  opt.keep_events = false;
  const std::vector<std::string>& paths = args->positional();
  ThreadPool pool(paths.size() > 1 ? 0 : 1);
  auto traces = import_chrome_traces(paths, opt, pool);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    auto& t = traces[i];
    if (!t) return report_error("trace info", t.error());
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [ph, n] : t->by_phase) phases[ph] = n;
    nlohmann::json lanes = nlohmann::json::array();
    for (const auto& l : t->lanes)
      lanes.push_back({{"pid", l.pid}, {"tid", l.tid}, {"label", l.label}});
    all.push_back({{"file", path},
                   {"events", t->events},
                   {"by_phase", phases},
                   {"lanes", lanes.size()},
                   {"lane_list", lanes},
                   {"span_us", t->span_us},
                   {"rank", t->rank >= 0 ? nlohmann::json(t->rank) : nlohmann::json(nullptr)}});
    // Only when so: the event array ended early (a process that stopped while writing).
    if (t->unterminated) all.back()["unterminated"] = true;
  }
  const bool json_stdout = args->get_or("json", "") == "-";
  if (auto dest = args->get("json")) {
    // One file: the object itself (keys events, by_phase, lanes, span_us); several: an array.
    const nlohmann::json out = all.size() == 1 ? all[0] : all;
    if (Status s = write_json_output(*dest, out); !s) return report_error("trace info", s.error());
  }
  if (!json_stdout) {
    for (const auto& t : all) {
      std::printf("%s\n  events   %lld\n  lanes    %zu\n  span     %.3f ms\n  phases  ",
                  t["file"].get<std::string>().c_str(),
                  static_cast<long long>(t["events"].get<std::int64_t>()),
                  t["lanes"].get<std::size_t>(), t["span_us"].get<double>() / 1000.0);
      for (const auto& [ph, n] : t["by_phase"].items())
        std::printf(" %s=%lld", ph.c_str(), static_cast<long long>(n.get<std::int64_t>()));
      std::printf("\n");
      if (!t["rank"].is_null()) std::printf("  rank     %d\n", t["rank"].get<int>());
      if (t.contains("unterminated"))
        std::printf("  note     the event array is not terminated (the writer stopped early)\n");
    }
  }
  return kExitOk;
}

nlohmann::json side_json(const TraceCompareSide& s) {
  return {{"file", s.source}, {"events", s.events},   {"names", s.names},
          {"lanes", s.lanes}, {"span_us", s.span_us}, {"total_us", s.total_us}};
}

nlohmann::json comparison_json(const TraceComparison& c, const TraceCompareOptions& options) {
  nlohmann::json names = nlohmann::json::array();
  for (const NameDiff& d : c.names) {
    names.push_back({{"name", d.name},
                     {"count_a", d.count_a},
                     {"count_b", d.count_b},
                     {"total_us_a", d.total_us_a},
                     {"total_us_b", d.total_us_b},
                     {"delta_us", d.delta_us},
                     {"status", name_diff_status_name(d.status)}});
  }
  return {{"a", side_json(c.a)},
          {"b", side_json(c.b)},
          {"category", options.category},
          {"fold_digits", options.fold_digits},
          {"tolerance", options.tolerance},
          {"names", names}};
}

std::string total_or_dash(std::int64_t count, double total_us) {
  return count == 0 ? std::string("-") : format_seconds(total_us * 1e-6);
}

void print_comparison(const TraceComparison& c, std::size_t limit) {
  // Nested events (an annotation around its kernels) each count, so the sum can exceed the span.
  std::printf("A  %s: %lld events, %lld names, sum of durations %s, span %s\n", c.a.source.c_str(),
              static_cast<long long>(c.a.events), static_cast<long long>(c.a.names),
              format_seconds(c.a.total_us * 1e-6).c_str(),
              format_seconds(c.a.span_us * 1e-6).c_str());
  std::printf("B  %s: %lld events, %lld names, sum of durations %s, span %s\n\n",
              c.b.source.c_str(), static_cast<long long>(c.b.events),
              static_cast<long long>(c.b.names), format_seconds(c.b.total_us * 1e-6).c_str(),
              format_seconds(c.b.span_us * 1e-6).c_str());
  std::printf("%-48s %8s %8s %12s %12s %12s  %s\n", "name", "count A", "count B", "total A",
              "total B", "delta", "status");
  const std::size_t n = std::min(limit, c.names.size());
  for (std::size_t i = 0; i < n; ++i) {
    const NameDiff& d = c.names[i];
    std::string name = d.name.size() > 48 ? d.name.substr(0, 45) + "..." : d.name;
    const std::string sign = d.delta_us > 0 ? "+" : (d.delta_us < 0 ? "-" : "");
    std::printf("%-48s %8lld %8lld %12s %12s %12s  %s\n", name.c_str(),
                static_cast<long long>(d.count_a), static_cast<long long>(d.count_b),
                total_or_dash(d.count_a, d.total_us_a).c_str(),
                total_or_dash(d.count_b, d.total_us_b).c_str(),
                (sign + format_seconds(std::abs(d.delta_us) * 1e-6)).c_str(),
                name_diff_status_name(d.status));
  }
  if (c.names.size() > n)
    std::printf("... %zu more names (--limit N, or --json for all)\n", c.names.size() - n);
}

int trace_compare(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"json", "FILE",
       "write {a, b, names: [{name, count_a, count_b, total_us_a, total_us_b, delta_us, status}]} "
       "('-' = stdout)"},
      {"category", "CAT", "only events of this category (kernel, cpu_op, user_annotation, ...)"},
      {"fold-digits", "", "count names that differ only in digits together (ProfilerStep#12, #13)"},
      {"tolerance", "PCT", "totals within PCT % of each other are 'unchanged' (default 5)"},
      {"limit", "N", "rows printed (default 30; --json holds every name)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace compare", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack trace compare A B [--json FILE] [--category CAT] [--fold-digits]",
                    "Compares the complete events (X, matched B/E) of two traces by exact "
                    "name: count and total duration in A and in B, delta = B - A, and a "
                    "status; largest changes first.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().size() != 2)
    return report_error("trace compare", Error::bad_input("expected two trace files, A and B"));
  TraceCompareOptions options;
  options.category = args->get_or("category", "");
  options.fold_digits = args->has("fold-digits");
  auto tolerance = args->get_double("tolerance", 5.0);
  if (!tolerance) return report_error("trace compare", tolerance.error());
  if (!(*tolerance >= 0.0 && *tolerance <= 100.0))
    return report_error("trace compare", Error::bad_input("--tolerance must be 0..100 (percent)"));
  options.tolerance = *tolerance / 100.0;
  auto limit = args->get_int("limit", 30);
  if (!limit) return report_error("trace compare", limit.error());
  if (*limit < 0) return report_error("trace compare", Error::bad_input("--limit must be >= 0"));

  const TraceImportOptions no_args{.keep_events = true, .keep_args = false};  // not compared
  auto a = import_chrome_trace(args->positional()[0], no_args);
  if (!a) return report_error("trace compare", a.error());
  auto b = import_chrome_trace(args->positional()[1], no_args);
  if (!b) return report_error("trace compare", b.error());
  const TraceComparison c = compare_traces(*a, *b, options);
  const bool json_stdout = args->get_or("json", "") == "-";
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, comparison_json(c, options)); !s)
      return report_error("trace compare", s.error());
  }
  if (!json_stdout) print_comparison(c, static_cast<std::size_t>(*limit));
  return kExitOk;
}

}  // namespace

int cmd_trace(int argc, char** argv) {
  const std::string sub = argc >= 3 ? argv[2] : "";
  if (sub == "info") return trace_info(argc, argv);
  if (sub == "compare") return trace_compare(argc, argv);
  if (sub == "--help" || sub == "-h") {
    std::fputs(kTraceUsage, stdout);
    return kExitOk;
  }
  return report_error("trace",
                      Error::bad_input(sub.empty() ? "expected 'trace info' or 'trace compare'"
                                                   : "unknown subcommand '" + sub +
                                                         "' (expected info or compare)"));
}

}  // namespace slimpack::cli
