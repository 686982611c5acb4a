// slimpack: the headless command-line front end over the core (docs/design.md section 9).
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.h"
#include "common/memory_reuse.h"
#include "image_export.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"simulate", slimpack::cli::cmd_simulate, "solve (or load) a plan and simulate the pipeline"},
    {"solve", slimpack::cli::cmd_solve, "build a plan with a strategy and write it as JSON"},
    {"compare", slimpack::cli::cmd_compare, "run several strategies on one workload"},
    {"dataset", slimpack::cli::cmd_dataset,
     "each strategy over every batch of the dataset: median, p95, max and the worst batch"},
    {"sweep", slimpack::cli::cmd_sweep, "vary one parameter and print a row per value"},
    {"search", slimpack::cli::cmd_search,
     "which configuration trains fastest within a GPU budget (and search merge)"},
    {"info", slimpack::cli::cmd_info, "statistics of a length file or preset"},
    {"fit-costs", slimpack::cli::cmd_fit_costs, "fit cost coefficients to measured pack times"},
    {"trace", slimpack::cli::cmd_trace,
     "inspect, summarise and compare Chrome / Kineto traces, and where a run's bubbles come "
     "from (trace info, summary, compare, pipeline)"},
    {"export", slimpack::cli::cmd_export,
     "write a plan in another runtime's schedule format (export torch-pp: PyTorch's CSV)"},
};

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: slimpack <command> [options]\n\n"
               "SlimPack Explorer %s: slices, asymmetric MicroPacks and pipeline schedules.\n\n"
               "commands:\n",
               SLIMPACK_VERSION);
  for (const auto& c : kCommands) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out,
               "\nRun 'slimpack <command> --help' for the options of a command.\n"
               "Exit codes: 0 success, 2 bad input or usage, 1 internal failure.\n");
}

}  // namespace

int main(int argc, char** argv) {
  // Searches and sweeps simulate thousands of plans: freed memory stays for the next one.
  slimpack::keep_freed_memory_for_reuse();
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return 0;
  }
  if (name == "--version") {
    std::printf("slimpack %s\n", SLIMPACK_VERSION);
    return 0;
  }
  for (const auto& c : kCommands) {
    if (name != c.name) continue;
    if (int rc = slimpack::cli::run_pictures_program_if_asked(argc, argv); rc != 0) return rc;
    return c.run(argc, argv);
  }
  std::fprintf(stderr, "slimpack: unknown command '%s' (run 'slimpack --help')\n", name.c_str());
  return 2;
}
