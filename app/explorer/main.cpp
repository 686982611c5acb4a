// slimpack-explorer [--screenshot FILE.png] [--open-session FILE] [FILE]
// Opens on the embedded default workload (or FILE: a length file, plan or session) and shows the
// first result as soon as the worker delivers it. With --screenshot it renders the window after the
// first result, writes the PNG and exits (works with QT_QPA_PLATFORM=offscreen).
#include <QApplication>
#include <QTemporaryDir>

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "common/memory_reuse.h"
#include "window/data_paths.h"
#include "window/explorer_args.h"
#include "window/main_window.h"
#include "window/screenshot.h"
#include "window/settings.h"

int main(int argc, char** argv) {
  // Every slider move re-simulates: freed result memory stays for the next simulation.
  slimpack::keep_freed_memory_for_reuse();
  // An export into a FIFO or socket whose reader went away must fail with a message (EPIPE from
  // the output-file rule), not end the program with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  // Before QApplication: Qt takes -session/--session out of argv for X11 session management.
  if (const std::string retired = slimpack::ui::retired_option_message(argc, argv);
      !retired.empty()) {
    std::fprintf(stderr, "%s\n", retired.c_str());
    return 2;
  }
  QApplication app(argc, argv);
  QApplication::setApplicationName("slimpack-explorer");
  QApplication::setApplicationDisplayName("SlimPack Explorer");
  QApplication::setOrganizationName("SlimPack");
  QApplication::setApplicationVersion(QStringLiteral(SLIMPACK_VERSION));
  QApplication::setDesktopFileName("slimpack-explorer");

  const slimpack::ui::ExplorerArgs args =
      slimpack::ui::parse_explorer_args(QCoreApplication::arguments());
  if (args.data_dirs) {
    const auto shown = [](const QString& dir) {
      return dir.isEmpty() ? QStringLiteral("(none)") : dir;
    };
    std::printf("samples: %s\ndocs: %s\n", qPrintable(shown(slimpack::ui::samplesDirectory())),
                qPrintable(shown(slimpack::ui::docsDirectory())));
    return 0;
  }

  // Screenshots must not depend on the user's saved layout: they use throw-away settings.
  const bool shooting = !args.screenshot.isEmpty();
  QTemporaryDir scratch;
  std::unique_ptr<slimpack::ui::Settings> settings =
      shooting ? slimpack::ui::Settings::fromFile(scratch.filePath("settings.ini"))
               : slimpack::ui::Settings::fromUserSettings();
  if (shooting && !args.theme.isEmpty()) settings->setTheme(args.theme);

  slimpack::ui::MainWindow window(*settings);
  slimpack::ui::open_from_args(window, args);

  if (shooting) {
    slimpack::ui::ScreenshotOptions opt;
    opt.path = args.screenshot;
    opt.view = args.view;
    opt.size = args.size;
    slimpack::ui::takeScreenshotWhenReady(window, opt, [](bool ok, const QString& message) {
      std::fprintf(ok ? stdout : stderr, "%s\n", message.toLocal8Bit().constData());
      QCoreApplication::exit(ok ? 0 : 1);
    });
  } else {
    window.show();
  }
  return QApplication::exec();
}
