// The explorer's jobs against the CLI on the same work (issue 33 item 4): the real window does what
// a user does, timed until the result is on screen, and `slimpack` does the same work in a child
// process, timed by its rusage, in the same run:
//   search   the Search tab's Run, G GPUs and K batches of the default workload, against
//            `slimpack search --gpus G --batches K`;
//   open     a length file opened with a column, until the Gantt painted its plan, against
//            `slimpack simulate --lengths FILE --column C`;
//   column   the workload switched to another column of the same file (what the Workload panel's
//            column box does), against `slimpack simulate --lengths FILE --column C2`.
// "on screen" is the Gantt painted (open, column) or the search table filled (search); "idle" adds
// what the window starts by itself after it (the slice-size sweep of the new workload). CPU is the
// process's user + system time over the same interval (the GUI thread's painting included).
// --load N runs N busy processes at the default priority beside both, as on a shared machine.
// Not a test: a program that prints a table, run by scripts/bench-explorer.sh.
// Usage: slimpack_jobs_bench SLIMPACK FILE COLUMN COLUMN2 [--gpus G] [--batches K] [--load N]
//        (QT_QPA_PLATFORM=offscreen without a display)
#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/memory_reuse.h"
#include "event_loop_wait.h"
#include "gantt/gantt_view.h"
#include "jobs/job_board.h"
#include "jobs/job_tracker.h"
#include "open_window.h"
#include "panels/search_panel.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/session_io.h"
#include "window/settings.h"

namespace {

using namespace slimpack;
using namespace slimpack::ui;

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

struct Timing {
  double wall = 0.0;
  double cpu = 0.0;
  double worst_tick_ms = 0.0;  // the GUI thread's longest wait for a 10 ms timer, beyond the 10 ms
};

// How long the GUI thread made a 10 ms timer wait: its events are late by as much when the jobs
// take the cores from it (or when it paints). Reset per case.
class TickProbe {
 public:
  TickProbe() {
    timer_.setInterval(10);
    timer_.setTimerType(Qt::PreciseTimer);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      const double ms = static_cast<double>(since_.nsecsElapsed()) / 1e6;
      worst_ = std::max(worst_, ms - 10.0);
      since_.start();
    });
  }
  void start() {
    worst_ = 0.0;
    since_.start();
    timer_.start();
  }
  double worst() const { return worst_; }

 private:
  QTimer timer_;
  QElapsedTimer since_;
  double worst_ = 0.0;
};

template <class Done>
bool spin_until(Done done, int ms) {
  return bench::run_events_until(done, ms, bench::Wait::Sleep);
}

// Runs `argv` as a child process and returns its wall and CPU time (its rusage); exits on failure.
Timing run_cli(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  QElapsedTimer t;
  t.start();
  std::fflush(stdout);  // the child must not write this process's buffered lines again
  const pid_t pid = fork();
  if (pid == 0) {
    if (std::FILE* null = std::freopen("/dev/null", "w", stdout); !null) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "jobs bench: %s failed (status %d)\n", args[0].c_str(), status);
    std::exit(1);
  }
  return {static_cast<double>(t.nsecsElapsed()) / 1e9, seconds(u.ru_utime) + seconds(u.ru_stime)};
}

// N processes that spin at the default priority until killed: other work on a shared machine.
std::vector<pid_t> start_load(int n) {
  std::vector<pid_t> pids;
  std::fflush(stdout);
  for (int i = 0; i < n; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      setpriority(PRIO_PROCESS, 0, 0);
      volatile unsigned long x = 0;
      for (;;) x = x + 1;
    }
    pids.push_back(pid);
  }
  return pids;
}

void print_row(const char* what, const Timing& shown, const Timing& idle, const Timing& cli) {
  std::printf(
      "  %-7s explorer %6.2f s wall %6.2f s CPU (idle %6.2f s, %6.2f s CPU; GUI timer late "
      "<= %3.0f ms)   CLI %6.2f s wall %6.2f s CPU   explorer/CLI wall %.2fx CPU %.2fx\n",
      what, shown.wall, shown.cpu, idle.wall, idle.cpu, idle.worst_tick_ms, cli.wall, cli.cpu,
      shown.wall / cli.wall, shown.cpu / cli.cpu);
}

}  // namespace

int main(int argc, char** argv) {
  // The allocator policy the explorer's main sets first: the window here is the explorer's.
  slimpack::keep_freed_memory_for_reuse();
  QApplication app(argc, argv);
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: slimpack_jobs_bench SLIMPACK FILE COLUMN COLUMN2 [--gpus G] [--batches K] "
                 "[--load N]\n");
    return 2;
  }
  const std::string slimpack = argv[1], file = argv[2], column = argv[3], column2 = argv[4];
  int gpus = 16, batches = 4, load = 0;
  for (int i = 5; i + 1 < argc; i += 2) {
    const std::string opt = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (opt == "--gpus")
      gpus = value;
    else if (opt == "--batches")
      batches = value;
    else if (opt == "--load")
      load = value;
    else {
      std::fprintf(stderr, "jobs bench: unknown option %s\n", opt.c_str());
      return 2;
    }
  }
  QTemporaryDir dir;
  std::unique_ptr<Settings> settings;
  const auto opened = openTestWindow(dir, settings, {1600, 1000});
  MainWindow& window = *opened;
  ExplorerController& c = window.controller();
  GanttView* gantt = window.ganttView();
  SearchPanel* search = window.searchPanel();
  const auto idle = [&] {
    return !c.busy() && !search->jobs().busy() && !window.jobBoard().busy();
  };
  const auto painted = [&](const GanttModel* before) {
    return c.snapshot() && !c.pipelineJobs().busy() && gantt->model() &&
           gantt->model().get() != before && gantt->paintedModel() == gantt->model().get();
  };
  if (!QTest::qWaitForWindowExposed(&window) || !spin_until(idle, 600000)) {
    std::fprintf(stderr, "jobs bench: the first result never arrived\n");
    return 1;
  }
  const std::vector<pid_t> others = start_load(load);
  std::printf("explorer jobs against the CLI on the same work (%d busy processes beside):\n", load);

  TickProbe probe;
  // timed(start, shown): wall and CPU from start() until shown(), then until the window is idle.
  const auto timed = [&](auto start, auto shown, Timing& at_shown, Timing& at_idle) {
    QElapsedTimer t;
    const double cpu0 = process_cpu_seconds();
    probe.start();
    t.start();
    start();
    QStringList seen;  // every job that ran meanwhile (the table names them)
    const auto shown_noting = [&] {
      for (const QString& job : window.jobBoard().running())
        if (!seen.contains(job)) seen << job;
      return shown();
    };
    if (!spin_until(shown_noting, 600000)) return false;
    if (std::getenv("JOBS_BENCH_VERBOSE")) {
      std::printf("    jobs: %s\n", qPrintable(seen.join(QStringLiteral(", "))));
      if (const SnapshotPtr& snap = c.snapshot())
        std::printf("    snapshot: load %.2f s, solve %.2f s, simulate %.2f s\n",
                    snap->seconds_load, snap->seconds_solve, snap->seconds_simulate);
    }
    at_shown = {static_cast<double>(t.nsecsElapsed()) / 1e9, process_cpu_seconds() - cpu0};
    if (!spin_until(idle, 600000)) return false;
    at_idle = {static_cast<double>(t.nsecsElapsed()) / 1e9, process_cpu_seconds() - cpu0,
               probe.worst()};
    return true;
  };

  bool ok = true;
  Timing shown, at_idle;
  // Search first, on the default workload the CLI's search samples too.
  window.showView(QStringLiteral("search"));
  search->setGpus(gpus);
  search->setBatches(batches);
  bool search_done = false;
  QObject::connect(search, &SearchPanel::finished, [&] { search_done = true; });
  ok = ok && timed([&] { search->run(); }, [&] { return search_done; }, shown, at_idle);
  const Timing cli_search = run_cli({slimpack, "search", "--gpus", std::to_string(gpus),
                                     "--batches", std::to_string(batches), "--quiet"});
  if (ok) print_row("search", shown, at_idle, cli_search);

  window.showView(QStringLiteral("gantt"));
  const GanttModel* before = gantt->model().get();
  ok = ok && timed(
                 [&] {
                   window.session().openFile(QString::fromStdString(file),
                                             QString::fromStdString(column));
                 },
                 [&] { return painted(before); }, shown, at_idle);
  const Timing cli_open =
      run_cli({slimpack, "simulate", "--lengths", file, "--column", column, "--quiet"});
  if (ok) print_row("open", shown, at_idle, cli_open);

  before = gantt->model().get();
  ok = ok && timed(
                 [&] {
                   WorkloadSpec spec = c.workload();
                   spec.column = column2;
                   c.setWorkload(spec);
                 },
                 [&] { return painted(before); }, shown, at_idle);
  const Timing cli_column =
      run_cli({slimpack, "simulate", "--lengths", file, "--column", column2, "--quiet"});
  if (ok) print_row("column", shown, at_idle, cli_column);

  for (pid_t pid : others) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  if (!ok) std::fprintf(stderr, "jobs bench: a result never arrived\n");
  return ok ? 0 : 1;
}
