#pragma once
// Help > User Guide (the bundled docs/user-guide.md with its screenshots, from the program's
// resources) and Help > Keyboard Shortcuts (every menu action's shortcut, read from the menus
// themselves, plus the keys the Gantt handles).
#include <QString>

QT_BEGIN_NAMESPACE
class QDialog;
class QMainWindow;
QT_END_NAMESPACE

namespace slimpack::ui {

// The resource path of the bundled guide (resources/explorer.qrc).
inline constexpr const char* kUserGuideResource = ":/docs/user-guide.md";

// Opens (non-modal, reused) the user guide; returns the dialog (tests read its text).
QDialog* showUserGuide(QMainWindow* window);
QDialog* showKeyboardShortcuts(QMainWindow* window);
// "Ctrl+O\tOpen…" lines of every menu action with a shortcut, then the Gantt's keys.
QString shortcutListText(QMainWindow* window);

}  // namespace slimpack::ui
