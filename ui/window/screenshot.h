#pragma once
// --screenshot: waits for the first result (and, for the compare/sweep views, for those jobs),
// renders the window into a PNG and reports. Event driven: no sleeping, no processEvents loop.
#include <QSize>
#include <QString>
#include <functional>

namespace slimpack::ui {

class MainWindow;

struct ScreenshotOptions {
  QString path;
  // gantt, compare, sweep; guide (the User Guide window); states of the Gantt: infeasible (t = 2
  // on the default workload: the failure banner over the greyed previous result), zoomed (a
  // zoomed part with a pinned sequence: scroll bar, zoom line, named highlight); traces (the
  // Traces tab), measured (the Traces tab with measured vs simulated). Traces given on the
  // command line are waited for.
  QString view = QStringLiteral("gantt");
  QSize size{1600, 1000};
  int timeout_ms = 120000;  // give up (and report) when no result came
};

// Calls `done(ok, message)` once, after the PNG is written or on failure.
void takeScreenshotWhenReady(MainWindow& window, const ScreenshotOptions& options,
                             std::function<void(bool, const QString&)> done);

}  // namespace slimpack::ui
