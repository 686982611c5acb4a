#pragma once
// Light and dark application palettes (Fusion style so both look the same on every platform), and
// the high-contrast palette of presentation mode.
#include <QPalette>
#include <QString>

#include "painter/gantt_palette.h"

namespace slimpack::ui {

QPalette lightPalette();
QPalette darkPalette();
QPalette highContrastPalette();
// Applies the named theme ("light" / "dark") to the application.
void applyTheme(const QString& theme);
GanttTheme ganttTheme(const QString& theme);

}  // namespace slimpack::ui
