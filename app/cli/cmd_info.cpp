// slimpack info: statistics of a length file or a preset's sampled batch.
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "setup.h"

namespace slimpack::cli {

int cmd_info(int argc, char** argv) {
  std::vector<OptionSpec> specs = workload_options();
  specs.push_back(
      {"json", "FILE", "write count, total_tokens, min, median, mean, p99, max ('-' = stdout)"});
  specs.push_back({"help", "", "show this help"});
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("info", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack info [FILE] [--preset NAME] [options]",
                    "Loads a length file (or samples a preset's batch) and prints count, total "
                    "tokens, min/median/mean/p99/max.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().size() > 1)
    return report_error("info", Error::bad_input("expected at most one length file"));
  std::optional<std::string> file;
  if (args->positional().size() == 1) {
    if (args->has("lengths"))
      return report_error("info",
                          Error::bad_input("give the length file once (positional or --lengths)"));
    file = args->positional()[0];
  }
  auto w = load_workload(*args, file);
  if (!w) return report_error("info", w.error());
  std::vector<Tokens> lengths;
  lengths.reserve(w->batch.sequences.size());
  for (const auto& s : w->batch.sequences) lengths.push_back(s.length);
  const LengthStats st = compute_stats(lengths);

  nlohmann::json j = {
      {"source", w->label}, {"count", st.count},   {"total_tokens", st.total_tokens},
      {"min", st.min},      {"median", st.median}, {"mean", st.mean},
      {"p99", st.p99},      {"max", st.max}};
  if (auto dest = args->get("json")) {
    if (Status s = write_json_output(*dest, j); !s) return report_error("info", s.error());
    if (*dest == "-") return kExitOk;
  }
  std::printf("source        %s\n", w->label.c_str());
  std::printf("count         %lld\n", static_cast<long long>(st.count));
  std::printf("total tokens  %lld (%s)\n", static_cast<long long>(st.total_tokens),
              format_count(static_cast<double>(st.total_tokens)).c_str());
  std::printf("min           %lld\n", static_cast<long long>(st.min));
  std::printf("median        %.1f\n", st.median);
  std::printf("mean          %.1f\n", st.mean);
  std::printf("p99           %.1f\n", st.p99);
  std::printf("max           %lld\n", static_cast<long long>(st.max));
  return kExitOk;
}

}  // namespace slimpack::cli
