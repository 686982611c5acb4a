#include "window/explorer_args.h"

#include <QCommandLineParser>
#include <string_view>

#include "window/main_window.h"
#include "window/session_io.h"

namespace slimpack::ui {

std::string retired_option_message(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i] ? argv[i] : "";
    if (a == "--") break;  // what follows is a file name
    for (const std::string old : {"--session", "-session"}) {
      if (a == old || a.substr(0, old.size() + 1) == old + "=")
        return "slimpack-explorer: " + old +
               " is not an explorer option (Qt reserves it for X11 session management); "
               "open a session with --open-session FILE.slimpack or pass the file itself";
    }
  }
  return {};
}

ExplorerArgs parse_explorer_args(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription("Explore SlimPack pipeline schedules: workload, plan, Gantt.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption screenshot(
      "screenshot", "Render the window after the first result to FILE.png and exit.", "FILE.png");
  QCommandLineOption session("open-session", "Open a .slimpack session file.", "FILE");
  QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000).", "WxH");
  QCommandLineOption view(
      "view",
      "For --screenshot: gantt (default), compare, search, sweep, dataset (8 batches, every "
      "strategy), guide (the User Guide window), infeasible (the failure banner), zoomed, "
      "presentation (presentation mode), traces, "
      "measured (measured vs simulated) or bubbles (where a run's bubbles come from).",
      "NAME");
  QCommandLineOption theme("theme", "For --screenshot: light (default) or dark.", "NAME");
  QCommandLineOption data_dirs("data-dirs",
                               "Print where the bundled samples and docs were found, and exit.");
  QCommandLineOption column(
      "column",
      "The column (CSV) or field (JSONL) holding the lengths in the length files given, as "
      "slimpack's --column; without it a file of several columns asks which.",
      "NAME");
  parser.addOptions({screenshot, session, size, view, theme, data_dirs, column});
  parser.addPositionalArgument(
      "FILE...",
      "Files to open: a length file (.csv, .json, .jsonl), a plan, a session, or profiler "
      "traces (Chrome / Kineto / PyTorch, .json or .json.gz); several traces open as the ranks "
      "of one run, and a folder with a plan and its rank traces opens as a run.",
      "[FILE...]");
  parser.process(arguments);

  ExplorerArgs a;
  a.session = parser.value(session);
  a.files = parser.positionalArguments();
  a.column = parser.value(column);
  a.screenshot = parser.value(screenshot);
  if (parser.isSet(view)) a.view = parser.value(view);
  a.theme = parser.value(theme);
  a.data_dirs = parser.isSet(data_dirs);
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() == 2) a.size = QSize(wh[0].toInt(), wh[1].toInt());
  }
  return a;
}

void open_from_args(MainWindow& window, const ExplorerArgs& args) {
  if (!args.session.isEmpty()) window.session().openFile(args.session);
  for (const QString& file : args.files) window.session().openFile(file, args.column);
}

}  // namespace slimpack::ui
