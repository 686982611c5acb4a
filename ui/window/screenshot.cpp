#include "window/screenshot.h"

#include <QBuffer>
#include <QByteArray>
#include <QCoreApplication>
#include <QDialog>
#include <QPixmap>
#include <QTabWidget>
#include <QTimer>
#include <memory>

#include "common/output_file.h"
#include "gantt/gantt_view.h"
#include "panels/compare_view.h"
#include "panels/dataset_panel.h"
#include "panels/search_panel.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/help_dialogs.h"
#include "window/main_window.h"
#include "window/presentation_mode.h"

namespace slimpack::ui {
namespace {

struct Shot {
  MainWindow* window = nullptr;
  ScreenshotOptions options;
  std::function<void(bool, const QString&)> done;
  bool finished = false;
  bool compare_requested = false;
  bool sweep_requested = false;
  bool state_requested = false;
  bool search_requested = false;
  bool dataset_requested = false;

  void finish(bool ok, const QString& message) {
    if (finished) return;
    finished = true;
    done(ok, message);
  }

  // Called whenever a job finishes: shoots when everything the view needs is there.
  void check() {
    if (finished) return;
    ExplorerController& c = window->controller();
    if (!c.snapshot() || c.pipelineJobs().busy() || c.loadJobs().busy()) return;
    // Traces named on the command line: their loading, diff and measured-vs-simulated jobs.
    if (window->traceWorkspace()->busy()) return;
    if (options.view == "compare" && !compare_requested) {
      compare_requested = true;
      c.requestCompare(window->compareView()->selectedStrategies());
      return;
    }
    if (!sweep_requested && c.sweepJobs().busy() == false && options.view == "sweep") {
      sweep_requested = true;
      c.requestSweep();
      return;
    }
    if (options.view == "search" && !search_requested) {
      // A search small enough for a screenshot: within 16 GPUs on 4 batches.
      search_requested = true;
      SearchPanel* search = window->searchPanel();
      search->setGpus(16);
      search->setBatches(4);
      search->run();
      return;
    }
    if (options.view == "dataset" && !dataset_requested) {
      // Eight batches of the workload, every strategy: the tab a user opens to judge a dataset.
      dataset_requested = true;
      DatasetPanel* dataset = window->findChild<DatasetPanel*>();
      for (QWidget* w = dataset; w; w = w->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
          tabs->setCurrentWidget(dataset);
          break;
        }
      dataset->setBatches(8);
      dataset->run();
      return;
    }
    if (options.view == "infeasible" && !state_requested) {
      // t = 2 without recomputation: the default workload's long sequences do not fit an 80 GB
      // stage (with the default, recompute auto, they do).
      state_requested = true;
      ConfigSpec spec = c.config();
      spec.tp = 2;
      spec.recompute = RecomputeSpec{RecomputeMode::None, 0};
      c.setConfig(spec);
      return;
    }
    if (options.view == "zoomed" && !state_requested) {
      state_requested = true;
      GanttView* g = window->ganttView();
      const TimeRange e = g->model()->time_extent();
      g->setViewRange(e.t0 + e.span() * 0.30, e.t0 + e.span() * 0.42);
      // Pin the longest sequence: its slices light up on every stage.
      int longest = 0;
      for (int s = 1; s < g->model()->sequence_count(); ++s)
        if (g->model()->sequence(s).length > g->model()->sequence(longest).length) longest = s;
      g->setHighlightedSequence(longest);
    }
    if (options.view == "presentation" && !state_requested) {
      // Presentation mode on the first result: full screen, large fonts, every panel hidden.
      state_requested = true;
      window->presentation().enter();
    }
    if (c.sweepJobs().busy() || c.compareJobs().busy() || window->searchPanel()->jobs().busy())
      return;
    if (DatasetPanel* dataset = window->findChild<DatasetPanel*>();
        dataset && dataset->jobs().busy())
      return;
    // Qt Charts lays its axes out in posted layout requests that can arrive after a zero timer;
    // flush them and give the scene a moment, so the picture shows what a user would see.
    QCoreApplication::sendPostedEvents();
    QTimer::singleShot(250, window, [this] {
      QCoreApplication::sendPostedEvents();
      QWidget* target = window;
      if (options.view == "guide") {
        target = showUserGuide(window);
        target->resize(900, 1000);
        QCoreApplication::sendPostedEvents();
      }
      const QPixmap pix = target->grab();
      // Encoded in memory, then written by the output-file rule like every other output.
      QByteArray png;
      QBuffer buffer(&png);
      buffer.open(QIODevice::WriteOnly);
      Status st =
          pix.save(&buffer, "PNG")
              ? write_output_file(
                    options.path.toStdString(),
                    std::string_view(png.constData(), static_cast<std::size_t>(png.size())))
              : Status(Error::internal(options.path.toStdString() + ": PNG encoding failed"));
      if (st)
        finish(true, QStringLiteral("wrote %1 (%2x%3)")
                         .arg(options.path)
                         .arg(pix.width())
                         .arg(pix.height()));
      else
        finish(false, QString::fromStdString(st.error().message));
    });
  }
};

}  // namespace

void takeScreenshotWhenReady(MainWindow& window, const ScreenshotOptions& options,
                             std::function<void(bool, const QString&)> done) {
  auto shot = std::make_shared<Shot>();
  shot->window = &window;
  shot->options = options;
  shot->done = std::move(done);
  window.resize(options.size);
  window.showView(options.view);
  window.show();
  ExplorerController& c = window.controller();
  for (JobTracker* jobs :
       {&c.pipelineJobs(), &c.sweepJobs(), &c.compareJobs(), &c.loadJobs(),
        &window.searchPanel()->jobs(), &window.findChild<DatasetPanel*>()->jobs()})
    QObject::connect(jobs, &JobTracker::busyChanged, &window, [shot](bool busy) {
      if (!busy) shot->check();
    });
  QObject::connect(window.traceWorkspace(), &TraceWorkspace::idle, &window,
                   [shot] { shot->check(); });
  QObject::connect(&c, &ExplorerController::pipelineFailed, &window, [shot](const QString& m) {
    if (!shot->window->controller().snapshot()) shot->finish(false, "no result: " + m);
  });
  QObject::connect(
      &window, &MainWindow::errorShown, &window,
      [shot](const QString& title, const QString& m) { shot->finish(false, title + ": " + m); });
  QTimer::singleShot(options.timeout_ms, &window,
                     [shot] { shot->finish(false, "timed out waiting for a result"); });
  shot->check();
}

}  // namespace slimpack::ui
