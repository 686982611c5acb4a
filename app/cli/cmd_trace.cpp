// slimpack trace info FILE...       counts of Chrome / Kineto traces (events, phases, lanes, span)
// slimpack trace compare A B        difference of two traces by event name (count, total, delta)
// slimpack trace summary FILE...    per rank and step: GPU computation, communication, memcpy, idle
// slimpack trace pipeline RUN       where a run's pipeline bubbles come from (trace_pipeline_cli)
#include <cstdio>

#include "app/run_compare.h"
#include "app/trace_compare_report.h"
#include "app/trace_summary_report.h"
#include "args.h"
#include "commands.h"
#include "output.h"
#include "thread_pool.h"
#include "trace/trace_import.h"
#include "trace_pipeline_cli.h"

namespace slimpack::cli {
namespace {

constexpr const char* kTraceUsage =
    "usage: slimpack trace info FILE... [--json FILE]\n"
    "       slimpack trace compare A B [--json FILE] [--steps all|N|A-B] [--category CAT] ...\n"
    "       slimpack trace summary FILE... [--json FILE] [--kernels N] [--idle-window trace|gpu] "
    "...\n"
    "       slimpack trace pipeline RUN --plan PLAN [--trace-rules NAME] [--json FILE]\n\n"
    "Reads Chrome Trace Event files (plain or .gz; our --trace exports, Kineto, PyTorch "
    "profiler).\n"
    "  info     event counts per phase, lanes and time span of each file\n"
    "  compare  complete events of A and B by name: count, total and self time in each, the\n"
    "           delta and a status (added, removed, longer, shorter, unchanged), whole or per "
    "step\n"
    "  summary  per rank and profiler step: GPU time split into computation, communication,\n"
    "           memory copies and idle (unions over streams), overlap, idle causes, launches,\n"
    "           memory peaks per device ([memory] events), counters, and the ranks lined up\n"
    "           per step (stragglers)\n"
    "  pipeline per stage of a run of PLAN: busy time and idle time by cause (fill and drain,\n"
    "           dependency on a late producer, transfer, other), the critical path, beside the\n"
    "           simulated plan's\n\n"
    "Run 'slimpack trace info --help', 'slimpack trace compare --help', 'slimpack trace summary "
    "--help'\nor 'slimpack trace pipeline --help' for their options.\n";

int trace_info(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"json", "FILE",
       "write {file, events, complete_events, by_phase, lanes, span_us[, unterminated]} ('-' = "
       "stdout; an array "
       "for several files)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace info", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack trace info FILE... [--json FILE]",
                    "Prints event counts per phase, lanes and time span of trace files. 'events' "
                    "counts every element of the event array (metadata, instants, counters and "
                    "flows included), as 'trace compare' does; 'complete events' those with a "
                    "duration (X, matched B/E), which 'trace compare' compares.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().empty())
    return report_error("trace info", Error::bad_input("no trace file given"));
  nlohmann::json all = nlohmann::json::array();
  // Counting only (no events kept), the files in parallel. A file that cannot be read does not
  // hide the others: they are printed, its entry says its error, and the errors come last
  // (exit 2).
  TraceImportOptions opt;
  opt.keep_events = false;
  const std::vector<std::string>& paths = args->positional();
  ThreadPool pool(paths.size() > 1 ? 0 : 1);
  auto traces = import_chrome_traces(paths, opt, pool);
  if (paths.size() == 1 && !traces[0]) return report_error("trace info", traces[0].error());
  std::vector<Error> failed;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    auto& t = traces[i];
    if (!t) {
      all.push_back({{"file", path}, {"error", t.error().message}});
      failed.push_back(t.error());
      continue;
    }
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [ph, n] : t->by_phase) phases[ph] = n;
    nlohmann::json lanes = nlohmann::json::array();
    std::int64_t complete = 0;
    for (const auto& l : t->lanes) {
      lanes.push_back({{"pid", l.pid}, {"tid", l.tid}, {"label", l.label}});
      complete += l.count;
    }
    all.push_back({{"file", path},
                   {"events", t->events},
                   {"complete_events", complete},
                   {"by_phase", phases},
                   {"lanes", lanes.size()},
                   {"lane_list", lanes},
                   {"span_us", t->span_us},
                   {"rank", t->rank >= 0 ? nlohmann::json(t->rank) : nlohmann::json(nullptr)},
                   {"unmatched", t->unmatched}});
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
      if (t.contains("error")) continue;  // reported below
      std::printf(
          "%s\n  events   %lld (%lld complete)\n  lanes    %zu\n  span     %.3f ms\n"
          "  phases  ",
          t["file"].get<std::string>().c_str(),
          static_cast<long long>(t["events"].get<std::int64_t>()),
          static_cast<long long>(t["complete_events"].get<std::int64_t>()),
          t["lanes"].get<std::size_t>(), t["span_us"].get<double>() / 1000.0);
      for (const auto& [ph, n] : t["by_phase"].items())
        std::printf(" %s=%lld", ph.c_str(), static_cast<long long>(n.get<std::int64_t>()));
      std::printf("\n");
      if (!t["rank"].is_null()) std::printf("  rank     %d\n", t["rank"].get<int>());
      if (t.contains("unterminated"))
        std::printf("  note     the event array is not terminated (the writer stopped early)\n");
      if (const auto n = t["unmatched"].get<std::int64_t>(); n > 0)
        std::printf("  warning  %s: not counted\n", unmatched_events_text(n).c_str());
    }
  }
  if (json_stdout)  // the text, which carries the warning, is not printed: say it on stderr
    for (const auto& t : all)
      if (t.contains("unmatched") && t["unmatched"].get<std::int64_t>() > 0)
        std::fprintf(stderr, "slimpack trace info: warning: %s: %s\n",
                     t["file"].get<std::string>().c_str(),
                     unmatched_events_text(t["unmatched"].get<std::int64_t>()).c_str());
  int rc = kExitOk;
  for (const Error& e : failed) rc = report_error("trace info", e);
  return rc;
}

int trace_compare(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"json", "FILE",
       "write {a, b, names: [{name, count_a, count_b, total_us_a, total_us_b, self_us_a, "
       "self_us_b, delta_us, delta_self_us, status}], ...} ('-' = stdout)"},
      {"steps", "all|N|A-B",
       "compare per profiler step (ProfilerStep#N): the mean per step over every step, step N, "
       "or steps A to B of each trace (default: the whole traces)"},
      {"category", "CAT",
       "only events of this category (kernel, cpu_op, user_annotation, ...); a category a file "
       "lacks is an error listing those it has"},
      {"fold-digits", "", "count names that differ only in digits together (ProfilerStep#12, #13)"},
      {"short-names", "",
       "drop template and argument lists from names, as HTA's short names (void "
       "f<int>(float) -> f)"},
      {"self", "", "order and judge the rows by self time (nested events' time taken out)"},
      {"include-profiler-span", "",
       "count the profiler's own 'PyTorch Profiler (N)' span (left out by default)"},
      {"tolerance", "PCT", "times within PCT % of each other are 'unchanged' (default 5)"},
      {"limit", "N", "rows printed (default 30; --json holds every name)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace compare", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack trace compare A B [--json FILE] [--steps all|N|A-B] [--category "
                    "CAT] [--fold-digits] [--short-names] [--self]",
                    "Compares the complete events (X, matched B/E) of two runs by name: count, "
                    "total duration and self time in A and in B, delta = B - A, and a status; "
                    "largest changes first. With --steps, per profiler step. A run of several "
                    "ranks is its files comma-separated or their folder: its ranks are merged "
                    "(lanes 'rank r:...'), as the explorer compares run A with run B.",
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
  options.short_names = args->has("short-names");
  options.include_profiler_span = args->has("include-profiler-span");
  options.by = args->has("self") ? CompareTime::Self : CompareTime::Total;
  if (auto steps = args->get("steps")) {
    auto range = parse_step_range(*steps);
    if (!range) return report_error("trace compare", range.error());
    options.steps = *range;
  }
  auto tolerance = args->get_double("tolerance", 5.0);
  if (!tolerance) return report_error("trace compare", tolerance.error());
  if (!(*tolerance >= 0.0 && *tolerance <= 100.0))
    return report_error("trace compare", Error::bad_input("--tolerance must be 0..100 (percent)"));
  options.tolerance = *tolerance / 100.0;
  auto limit = args->get_int("limit", 30);
  if (!limit) return report_error("trace compare", limit.error());
  if (*limit < 0) return report_error("trace compare", Error::bad_input("--limit must be >= 0"));

  // A side of several ranks ("r0.json,r1.json" or a folder) is merged as the explorer merges
  // run A and run B: core/app's compare_runs for both.
  auto split = [](const std::string& side) {
    std::vector<std::string> files;
    std::size_t at = 0;
    for (std::size_t comma; (comma = side.find(',', at)) != std::string::npos; at = comma + 1)
      files.push_back(side.substr(at, comma - at));
    files.push_back(side.substr(at));
    return files;
  };
  auto compared =
      compare_run_files(split(args->positional()[0]), split(args->positional()[1]), options);
  if (!compared) return report_error("trace compare", compared.error());
  const TraceComparison* c = &compared->comparison;
  const bool json_stdout = args->get_or("json", "") == "-";
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, trace_comparison_json(*c, options)); !s)
      return report_error("trace compare", s.error());
  }
  if (!json_stdout)
    std::fputs(trace_comparison_text(*c, options, static_cast<std::size_t>(*limit)).c_str(),
               stdout);
  return kExitOk;
}

int trace_summary(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"json", "FILE",
       "write {ranks: [{rank, file, steps: [{step, span_us, gpu_busy_us, computation_us, "
       "communication_us, memcpy_us, idle_us, overlap_us, ...}], total}], stragglers} ('-' = "
       "stdout)"},
      {"kernel-gap", "US",
       "idle gaps shorter than US microseconds not caused by the host are kernel-to-kernel "
       "launch overhead (default 30, the threshold HTA applies)"},
      {"kernels", "N",
       "print the N largest GPU operation names of each rank's kernel table, with the totals "
       "per kind (default 10; 0 = none; --json holds every name, per step too)"},
      {"short-names", "",
       "kernel table names as HTA's short names (void f<int>(float) -> f), as trace compare's"},
      {"idle-window", "trace|gpu",
       "window of the total row: the whole trace (default) or, as HTA's temporal breakdown, "
       "first GPU operation start to last end (gpu_first_us..gpu_last_us), so idle is HTA's "
       "idle_time"},
      {"threads", "N",
       "rank files read and summarised at once, each by one worker (default: one per core; 1 = "
       "one after the other)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace summary", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack trace summary FILE... [--json FILE] [--kernels N] [--short-names] "
                    "[--idle-window trace|gpu] [--threads N]",
                    "Per rank (one trace file per rank, or a folder of them) and per profiler "
                    "step (ProfilerStep#N): GPU time split into computation, communication, "
                    "memory copies and idle as unions of intervals over all streams, "
                    "communication hidden under computation (overlap), idle time by cause "
                    "(host, kernel, other), kernel launch statistics from ac2g flows, a kernel "
                    "table per name and kind (HTA's kernel breakdown), memory over time from "
                    "PyTorch's [memory] events (peak allocated and reserved bytes per device, "
                    "over the trace and per step) and the trace's counters, and the "
                    "ranks lined up per step with the slowest named. Definitions: "
                    "docs/file-formats-traces.md.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().empty())
    return report_error("trace summary", Error::bad_input("no trace file given"));
  TraceSummaryOptions options;
  auto gap = args->get_double("kernel-gap", options.kernel_gap_us);
  if (!gap) return report_error("trace summary", gap.error());
  if (!(*gap >= 0.0))
    return report_error("trace summary", Error::bad_input("--kernel-gap must be >= 0"));
  options.kernel_gap_us = *gap;
  options.short_names = args->has("short-names");
  if (const std::string w = args->get_or("idle-window", "trace"); w == "gpu" || w == "hta")
    options.total_window = IdleWindow::Gpu;
  else if (w != "trace")
    return report_error("trace summary",
                        Error::bad_input("--idle-window: expected trace or gpu, not '" + w + "'"));
  auto kernels = args->get_int("kernels", 10);
  if (!kernels) return report_error("trace summary", kernels.error());
  if (*kernels < 0)
    return report_error("trace summary", Error::bad_input("--kernels: must be >= 0"));
  auto threads = args->get_int("threads", 0);
  if (!threads) return report_error("trace summary", threads.error());
  if (*threads < 0)
    return report_error("trace summary", Error::bad_input("--threads: must be >= 0"));
  // The ranks stream through the workers: each imports a file, summarises it and drops its
  // events, so the peak is one rank per worker. A file that cannot be read does not hide the
  // others: they are summarised and printed, then its error (exit 2).
  ThreadPool pool(static_cast<int>(*threads));
  std::vector<Error> unreadable;
  auto summary = summarize_trace_files(args->positional(), options, CancelToken::none(),
                                       ProgressSink::none(), pool, &unreadable);
  if (!summary) return report_error("trace summary", summary.error());
  const bool json_stdout = args->get_or("json", "") == "-";
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, run_summary_json(*summary)); !s)
      return report_error("trace summary", s.error());
  }
  if (!json_stdout)
    std::fputs(run_summary_text(*summary, static_cast<std::size_t>(*kernels)).c_str(), stdout);
  int rc = kExitOk;
  for (const Error& e : unreadable) rc = report_error("trace summary", e);
  return rc;
}

}  // namespace

int cmd_trace(int argc, char** argv) {
  const std::string sub = argc >= 3 ? argv[2] : "";
  if (sub == "info") return trace_info(argc, argv);
  if (sub == "compare") return trace_compare(argc, argv);
  if (sub == "summary") return trace_summary(argc, argv);
  if (sub == "pipeline") return trace_pipeline(argc, argv);
  if (sub == "--help" || sub == "-h") {
    std::fputs(kTraceUsage, stdout);
    return kExitOk;
  }
  return report_error(
      "trace", Error::bad_input(sub.empty() ? "expected 'trace info', 'trace compare', 'trace "
                                              "summary' or 'trace pipeline'"
                                            : "unknown subcommand '" + sub +
                                                  "' (expected info, compare, summary or "
                                                  "pipeline)"));
}

}  // namespace slimpack::cli
