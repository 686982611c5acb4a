#pragma once
// The slimpack subcommands. Each returns the process exit code (0 ok, 2 bad input, 1 internal).
namespace slimpack::cli {

int cmd_info(int argc, char** argv);
int cmd_simulate(int argc, char** argv);
int cmd_solve(int argc, char** argv);
int cmd_compare(int argc, char** argv);
int cmd_dataset(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_search(int argc, char** argv);
int cmd_fit_costs(int argc, char** argv);
int cmd_trace(int argc, char** argv);
int cmd_export(int argc, char** argv);

}  // namespace slimpack::cli
