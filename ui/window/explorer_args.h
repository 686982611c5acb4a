#pragma once
// The explorer's command line, parsed the same way by main() and by the tests:
//   slimpack-explorer [--open-session FILE] [--screenshot FILE.png [--size WxH] [--view NAME]
//                     [--theme NAME]] [FILE...]
// `--session FILE` was taken by Qt for X11 session management before our parser saw it (the
// file was silently ignored), so sessions are opened with `--open-session FILE` and the old
// spelling stops with a message instead.
#include <QSize>
#include <QString>
#include <QStringList>
#include <string>

namespace slimpack::ui {

class MainWindow;

// The message for the first retired option in argv (checked before QApplication sees argv, as
// Qt removes -session/--session from it); empty when there is none.
std::string retired_option_message(int argc, const char* const* argv);

struct ExplorerArgs {
  QString session;     // --open-session
  QStringList files;   // positional: length files, plans, sessions
  QString column;      // --column: the CSV column / JSONL field of the length files given
  QString screenshot;  // --screenshot FILE.png (empty = show the window)
  QSize size{1600, 1000};
  QString view = QStringLiteral("gantt");
  QString theme;
  bool data_dirs = false;  // --data-dirs: print where samples and docs were found, and exit
};

// Parses `arguments` (arguments[0] is the program). --help, --version and bad options print
// and exit, as QCommandLineParser::process does.
ExplorerArgs parse_explorer_args(const QStringList& arguments);
// Opens what the arguments name in `window`: the session first, then the files in order.
void open_from_args(MainWindow& window, const ExplorerArgs& args);

}  // namespace slimpack::ui
