#include "painter/gui_app.h"

#include <QByteArray>
#include <QCoreApplication>

namespace slimpack {

bool have_gui_app() {
  return qobject_cast<QGuiApplication*>(QCoreApplication::instance()) != nullptr;
}

std::unique_ptr<QGuiApplication> ensure_gui_app(int& argc, char** argv) {
  if (QCoreApplication::instance() != nullptr) return nullptr;
  const bool has_display =
      !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
  if (!has_display && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
  return std::make_unique<QGuiApplication>(argc, argv);
}

std::unique_ptr<QGuiApplication> ensure_gui_app() {
  static int argc = 1;
  static char name[] = "slimpack";
  static char* argv[] = {name, nullptr};
  return ensure_gui_app(argc, argv);
}

}  // namespace slimpack
