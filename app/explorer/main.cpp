// slimpack-explorer [--screenshot FILE.png] [--session FILE] [FILE]
// Opens on the embedded default workload (or FILE: a length file, plan or session) and shows the
// first result as soon as the worker delivers it. With --screenshot it renders the window after the
// first result, writes the PNG and exits (works with QT_QPA_PLATFORM=offscreen).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "window/data_paths.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/screenshot.h"
#include "window/settings.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("slimpack-explorer");
  QApplication::setApplicationDisplayName("SlimPack Explorer");
  QApplication::setOrganizationName("SlimPack");
  QApplication::setApplicationVersion(QStringLiteral(SLIMPACK_VERSION));
  QApplication::setDesktopFileName("slimpack-explorer");

  QCommandLineParser parser;
  parser.setApplicationDescription("Explore SlimPack pipeline schedules: workload, plan, Gantt.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption screenshot("screenshot",
                                "Render the window after the first result to FILE.png "
                                "and exit.",
                                "FILE.png");
  QCommandLineOption session("session", "Open a .slimpack session file.", "FILE");
  QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000).", "WxH");
  QCommandLineOption view("view", "For --screenshot: gantt (default), compare or sweep.", "NAME");
  QCommandLineOption theme("theme", "For --screenshot: light (default) or dark.", "NAME");
  QCommandLineOption dataDirs("data-dirs",
                              "Print where the bundled samples and docs were found, and exit.");
  parser.addOptions({screenshot, session, size, view, theme, dataDirs});
  parser.addPositionalArgument("FILE", "A length file (.csv, .json, .jsonl), plan or session.");
  parser.process(app);
  if (parser.isSet(dataDirs)) {
    const auto shown = [](const QString& dir) { return dir.isEmpty() ? QStringLiteral("(none)") : dir; };
    std::printf("samples: %s\ndocs: %s\n", qPrintable(shown(slimpack::ui::samplesDirectory())),
                qPrintable(shown(slimpack::ui::docsDirectory())));
    return 0;
  }

  // Screenshots must not depend on the user's saved layout: they use throw-away settings.
  const bool shooting = parser.isSet(screenshot);
  QTemporaryDir scratch;
  std::unique_ptr<slimpack::ui::Settings> settings =
      shooting ? slimpack::ui::Settings::fromFile(scratch.filePath("settings.ini"))
               : slimpack::ui::Settings::fromUserSettings();
  if (shooting && parser.isSet(theme)) settings->setTheme(parser.value(theme));

  slimpack::ui::MainWindow window(*settings);
  if (parser.isSet(session)) window.openFile(parser.value(session));
  for (const QString& file : parser.positionalArguments()) window.openFile(file);

  if (shooting) {
    slimpack::ui::ScreenshotOptions opt;
    opt.path = parser.value(screenshot);
    opt.view = parser.isSet(view) ? parser.value(view) : QStringLiteral("gantt");
    if (parser.isSet(size)) {
      const QStringList wh = parser.value(size).split('x');
      if (wh.size() == 2) opt.size = QSize(wh[0].toInt(), wh[1].toInt());
    }
    slimpack::ui::takeScreenshotWhenReady(window, opt, [](bool ok, const QString& message) {
      std::fprintf(ok ? stdout : stderr, "%s\n", message.toLocal8Bit().constData());
      QCoreApplication::exit(ok ? 0 : 1);
    });
  } else {
    window.show();
  }
  return QApplication::exec();
}
