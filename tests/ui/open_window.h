#pragma once
// Where the window tests start: a MainWindow on a settings file of its own in `dir` (so no test
// reads the user's settings or another test's), error dialogs off (a dialog would block the test),
// shown at `size`.
#include <QSize>
#include <QTemporaryDir>
#include <memory>

#include "window/main_window.h"
#include "window/settings.h"

inline std::unique_ptr<slimpack::ui::MainWindow> openTestWindow(
    const QTemporaryDir& dir, std::unique_ptr<slimpack::ui::Settings>& settings,
    QSize size = {1400, 900}) {
  settings = slimpack::ui::Settings::fromFile(dir.filePath("settings.ini"));
  auto window = std::make_unique<slimpack::ui::MainWindow>(*settings);
  window->setErrorDialogsEnabled(false);
  window->resize(size);
  window->show();
  return window;
}
