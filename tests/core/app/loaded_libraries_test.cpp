// Nothing loaded that is not used: the `slimpack` program runs under ptrace and is stopped just
// before it exits (PTRACE_O_TRACEEXIT), with its address space whole, and /proc/PID/maps lists
// every shared object it mapped during the run, dlopen'ed ones included. CBC (with Clp, LAPACK
// and OpenBLAS, whose threads spin in sched_yield) may be mapped only by a command that solves a
// MILP, through the module core loads on the first solve (core/solver/milp/milp_loader.h).
#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct TracedRun {
  bool traced = false;  // false: ptrace is not permitted here (the test is skipped)
  int exit_code = -1;
  std::string maps;  // /proc/PID/maps at the exit stop
};

constexpr int kTraceRefused = 126;

// Runs SLIMPACK_CLI with `args` in the source tree, output to /dev/null.
TracedRun run_traced(const std::vector<std::string>& args) {
  std::vector<std::string> argv_s = {SLIMPACK_CLI};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  TracedRun run;
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(SLIMPACK_SOURCE_DIR) != 0) _exit(127);
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    // Under AddressSanitizer, LeakSanitizer stops the program's threads with ptrace at exit,
    // which fails in a process this test already traces (exit 1): leaks are checked by every
    // other test of the program, so not here.
    std::string asan = "detect_leaks=0";
    if (const char* given = std::getenv("ASAN_OPTIONS")) asan = std::string(given) + ":" + asan;
    setenv("ASAN_OPTIONS", asan.c_str(), 1);
    if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) _exit(kTraceRefused);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return run;
  if (WIFEXITED(status)) {  // PTRACE_TRACEME refused: no exec stop
    run.exit_code = WEXITSTATUS(status);
    return run;
  }
  run.traced = true;
  ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACEEXIT);
  int deliver = 0;
  for (;;) {
    ptrace(PTRACE_CONT, pid, nullptr, deliver);
    if (waitpid(pid, &status, 0) != pid) break;
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
      run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
    deliver = 0;
    if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
      std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
      std::stringstream ss;
      ss << in.rdbuf();
      run.maps = ss.str();
    } else if (WIFSTOPPED(status) && WSTOPSIG(status) != SIGTRAP) {
      deliver = WSTOPSIG(status);  // the program's own signals go on to it
    }
  }
  return run;
}

// The CBC module and what it links: none of these may be mapped unless a MILP was solved.
const std::vector<std::string> kMilpLibraries = {"slimpack-milp-cbc", "libCbc",    "libClp",
                                                 "libopenblas",       "liblapack", "libCoinUtils"};

std::vector<std::string> mapped_of(const std::string& maps, const std::vector<std::string>& libs) {
  std::vector<std::string> found;
  for (const std::string& lib : libs)
    if (maps.find(lib) != std::string::npos) found.push_back(lib);
  return found;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

#define SLIMPACK_RUN_TRACED(run, ...)                                         \
  const TracedRun run = run_traced(__VA_ARGS__);                              \
  if (!run.traced) GTEST_SKIP() << "ptrace is not permitted in this sandbox"; \
  ASSERT_FALSE(run.maps.empty()) << "no exit stop"

TEST(LoadedLibraries, TraceInfoMapsNoSolverLibraries) {
  SLIMPACK_RUN_TRACED(run, {"trace", "info", "samples/traces/kineto_small.json.gz"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(joined(mapped_of(run.maps, kMilpLibraries)), "");
  // The check can see libraries: the program's own ones are there.
  EXPECT_NE(run.maps.find("libsimdjson"), std::string::npos);
}

TEST(LoadedLibraries, SimulateWithTheHeuristicMapsNoSolverLibraries) {
  SLIMPACK_RUN_TRACED(run, {"simulate", "--preset", "chat-sft", "--batch-tokens", "65536",
                            "--strategy", "slimpack", "--json", "-"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(joined(mapped_of(run.maps, kMilpLibraries)), "");
}

TEST(LoadedLibraries, ExactSolveLoadsTheCbcModuleAndSolves) {
#if !defined(SLIMPACK_HAVE_MILP)
  GTEST_SKIP() << "built without CBC (SLIMPACK_ENABLE_MILP=OFF)";
#else
  SLIMPACK_RUN_TRACED(
      run, {"solve", "--preset", "chat-sft", "--batch-tokens", "65536", "--strategy", "slimpack",
            "--exact", "--time-limit", "1", "--out", "/dev/null"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(joined(mapped_of(run.maps, {"slimpack-milp-cbc", "libCbc", "libClp"})),
            "slimpack-milp-cbc, libCbc, libClp");
#endif
}

}  // namespace
