#pragma once
// Human-readable numbers for tables, tooltips and the status bar: one place decides units and
// precision so every panel prints the same value the same way.
#include <QString>

namespace slimpack::ui {

// Seconds with an adaptive unit ("812 ms", "1.24 s", "35.0 us"); `unit` other than "s" (explicit
// time plans) prints the plain number with that unit.
QString formatTime(double seconds, const QString& unit = QStringLiteral("s"));
QString formatBytes(double bytes);           // "61.3 GB" (decimal units, like GPU datasheets)
QString formatPercent(double fraction);      // "12.5 %"
QString formatTokens(double tokens);         // "1,048,576" / "131K" style compact when large
QString formatRate(double tokensPerSecond);  // "412K tok/s"

}  // namespace slimpack::ui
