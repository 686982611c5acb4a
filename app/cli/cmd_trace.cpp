// slimpack trace info FILE...: counts of a Chrome / Kineto trace (events, phases, lanes, span).
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "trace/trace_import.h"

namespace slimpack::cli {

int cmd_trace(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"json", "FILE", "write [{file, events, by_phase, lanes, span_us}] ('-' = stdout)"},
      {"help", "", "show this help"}};
  if (argc < 3 || std::string(argv[2]) != "info") {
    if (argc >= 3 && std::string(argv[2]) == "--help") {
      std::fputs(format_help("slimpack trace info FILE... [--json FILE]",
                             "Reads Chrome Trace Event files (plain or .gz; our exports, Kineto, "
                             "PyTorch profiler) and prints event counts per phase, lanes and time span.",
                             specs)
                     .c_str(),
                 stdout);
      return 0;
    }
    return report_error("trace", Error::bad_input("expected 'trace info FILE...'"));
  }
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("trace", args.error());
  if (args->has("help")) {
    std::fputs(format_help("slimpack trace info FILE... [--json FILE]",
                           "Prints event counts per phase, lanes and time span of trace files.", specs)
                   .c_str(),
               stdout);
    return 0;
  }
  if (args->positional().empty()) return report_error("trace", Error::bad_input("no trace file given"));
  nlohmann::json all = nlohmann::json::array();
  for (const auto& path : args->positional()) {
    TraceImportOptions opt;
    opt.keep_events = false;
    auto t = import_chrome_trace(path, opt);
    if (!t) return report_error("trace", t.error());
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [ph, n] : t->by_phase) phases[ph] = n;
    nlohmann::json lanes = nlohmann::json::array();
    for (const auto& l : t->lanes)
      lanes.push_back({{"pid", l.pid}, {"tid", l.tid}, {"label", l.label}});
    all.push_back({{"file", path}, {"events", t->events}, {"by_phase", phases},
                   {"lanes", lanes.size()}, {"lane_list", lanes}, {"span_us", t->span_us}});
  }
  const bool json_stdout = args->get_or("json", "") == "-";
  if (auto dest = args->get("json")) {
    // One file: the object itself (keys events, by_phase, lanes, span_us); several: an array.
    const nlohmann::json out = all.size() == 1 ? all[0] : all;
    if (Status s = write_json_output(*dest, out); !s) return report_error("trace", s.error());
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
    }
  }
  return kExitOk;
}

}  // namespace slimpack::cli
