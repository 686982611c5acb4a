#pragma once
// Image export needs a QGuiApplication (fonts, the paint engines of
// QImage/QSvgGenerator/QPdfWriter) but not a display. The CLI calls ensure_gui_app() before
// exporting; it is a no-op inside the GUI.
#include <QGuiApplication>
#include <memory>

namespace slimpack {

// Creates a QGuiApplication when no Q*Application exists yet and returns it (the caller keeps it
// alive while exporting); returns null when one already exists. With no X11/Wayland display and
// QT_QPA_PLATFORM unset it selects the "offscreen" platform first, so it works on headless CI.
// `argc` must stay valid for the application's lifetime (Qt keeps a reference to it).
std::unique_ptr<QGuiApplication> ensure_gui_app(int& argc, char** argv);

// Same, with a static program name as the only argument.
std::unique_ptr<QGuiApplication> ensure_gui_app();

// True when a QGuiApplication (or QApplication) exists.
bool have_gui_app();

}  // namespace slimpack
