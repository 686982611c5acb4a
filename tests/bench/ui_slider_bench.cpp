// Slider to painted Gantt (target: at most 100 ms on the default workload): the real window, the
// slice-size slider moved one step with a key press, timed until the Gantt has painted the new
// result, with the solve's and the simulation's share (the snapshot's own timings). Not a test:
// a program that prints the median and the worst of N moves, run by scripts/bench.sh.
// Usage: slimpack_slider_bench [MOVES]   (default 40; QT_QPA_PLATFORM=offscreen without a display)
#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/memory_reuse.h"
#include "event_loop_wait.h"
#include "gantt/gantt_view.h"
#include "open_window.h"
#include "panels/config_panel.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

namespace {

using namespace slimpack;
using namespace slimpack::ui;

template <class Done>
bool spin_until(Done done, int ms) {
  return bench::run_events_until(done, ms, bench::Wait::Spin);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  // The allocator policy the explorer's main sets first: the window here is the explorer's.
  slimpack::keep_freed_memory_for_reuse();
  QApplication app(argc, argv);
  const int moves = argc > 1 ? std::max(1, std::atoi(argv[1])) : 40;
  QTemporaryDir dir;
  std::unique_ptr<Settings> settings;
  const auto opened = openTestWindow(dir, settings, {1600, 1000});
  MainWindow& window = *opened;
  ExplorerController& c = window.controller();
  GanttView* gantt = window.ganttView();
  const auto idle_and_painted = [&] {
    return c.snapshot() && !c.busy() && gantt->model() &&
           gantt->paintedModel() == gantt->model().get();
  };
  if (!QTest::qWaitForWindowExposed(&window) || !spin_until(idle_and_painted, 60000)) {
    std::fprintf(stderr, "slider bench: the first result never painted\n");
    return 1;
  }
  QSlider* slider = window.configPanel()->sliceSlider();
  // Between the default S and one step up: each move is a new result the Gantt must paint.
  if (slider->value() == 0) slider->setValue(ConfigPanel::sliderIndexOf(2048));
  if (!spin_until(idle_and_painted, 60000)) return 1;
  slider->setFocus();
  const long long s0 = ConfigPanel::sliceOfIndex(slider->value());
  const long long s1 = ConfigPanel::sliceOfIndex(slider->value() + 1);
  // Two ways a user moves it: one step after a pause, and steps back to back (a drag or a held
  // key), where the controller coalesces edits for ExplorerController::kDebounceMs after a solve.
  struct Run {
    const char* what;
    int pause_ms;
    std::vector<double> total_ms, solve_ms, sim_ms;
  };
  Run runs[] = {{"one step after a pause", 4 * ExplorerController::kDebounceMs, {}, {}, {}},
                {"steps back to back", 0, {}, {}, {}}};
  for (Run& run : runs) {
    for (int i = 0; i < moves; ++i) {
      if (run.pause_ms > 0) QTest::qWait(run.pause_ms);
      const GanttModel* before = gantt->model().get();
      QElapsedTimer t;
      t.start();
      QTest::keyClick(slider, i % 2 == 0 ? Qt::Key_Right : Qt::Key_Left);
      const bool ok =
          spin_until([&] { return idle_and_painted() && gantt->model().get() != before; }, 60000);
      if (!ok) {
        std::fprintf(stderr, "slider bench: move %d never painted a new result\n", i);
        return 1;
      }
      run.total_ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
      run.solve_ms.push_back(c.snapshot()->seconds_solve * 1e3);
      run.sim_ms.push_back(c.snapshot()->seconds_simulate * 1e3);
    }
  }
  std::printf("slider to painted Gantt, default workload, %d moves each (S %lld <-> %lld):\n",
              moves, s0, s1);
  for (const Run& run : runs) {
    const double total = median(run.total_ms);
    std::printf(
        "  %-24s median %6.1f ms  worst %6.1f ms  (solve %.1f ms = %.0f %%, simulate "
        "%.1f ms = %.0f %%)\n",
        run.what, total, *std::max_element(run.total_ms.begin(), run.total_ms.end()),
        median(run.solve_ms), 100.0 * median(run.solve_ms) / total, median(run.sim_ms),
        100.0 * median(run.sim_ms) / total);
  }
  return 0;
}
