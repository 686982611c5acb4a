#pragma once
// Help > About: program, Qt and compiler versions, and what the program computes.
#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace slimpack::ui {

// The About text (rich text), shared by the dialog and --version style diagnostics.
QString aboutText();
void showAboutDialog(QWidget* parent);

}  // namespace slimpack::ui
