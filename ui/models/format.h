#pragma once
// Human-readable numbers for tables, tooltips and the status bar: one place decides units and
// precision so every panel prints the same value the same way.
#include <QString>
#include <string>

#include "jobs/explorer_inputs.h"

namespace slimpack::ui {

// QString forms of core/common/format.h: the CLI and the explorer share the one formatter.
// Seconds with an adaptive unit ("812 ms", "1.24 s", "35.0 us"); `unit` other than "s" (explicit
// time plans) prints the plain number with that unit.
QString formatTime(double seconds, const QString& unit = QStringLiteral("s"));
QString formatBytes(double bytes);           // "61.3 GB" (decimal units, like GPU datasheets)
QString formatPercent(double fraction);      // "12.5 %"
QString formatTokens(double tokens);         // "1,048,576", "1.05M" when large
QString formatRate(double tokensPerSecond);  // "412 k tok/s"
QString formatRatio(double ratio);           // "1.42x" (a speed-up)
// The relative change from `before` to `now`: "−2.1 % vs previous", "+0.4 % vs previous",
// "same as previous" (under 0.05 %); empty when `before` is not positive.
QString formatChange(double now, double before);

}  // namespace slimpack::ui

namespace slimpack::ui {

// A core message made fit for a dialog or banner: byte counts ("80011054848 bytes") in GB, and
// bytes that are not printable UTF-8 (a binary file's first line) shown as \xNN instead of
// mojibake. Long messages are cut at `max_chars` with an ellipsis.
QString readableMessage(const std::string& message, int max_chars = 600);
QString readableMessage(const QString& message, int max_chars = 600);

// "slimpack · p=4 d=1 t=8 · S auto · 1F1B" (what a result was computed for).
QString describeConfig(const ConfigSpec& config);

}  // namespace slimpack::ui
