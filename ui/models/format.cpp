#include "models/format.h"

#include <QLocale>
#include <cmath>

namespace slimpack::ui {

QString formatTime(double seconds, const QString& unit) {
  if (unit != QLatin1String("s")) return QString::number(seconds, 'g', 4) + ' ' + unit;
  const double a = std::fabs(seconds);
  if (a == 0.0) return QStringLiteral("0 s");
  if (a < 1e-3) return QString::number(seconds * 1e6, 'f', 1) + QStringLiteral(" us");
  if (a < 1.0) return QString::number(seconds * 1e3, 'f', a < 0.1 ? 2 : 1) + QStringLiteral(" ms");
  return QString::number(seconds, 'f', a < 10 ? 3 : 2) + QStringLiteral(" s");
}

QString formatBytes(double bytes) {
  const double a = std::fabs(bytes);
  if (a >= 1e9) return QString::number(bytes / 1e9, 'f', 1) + QStringLiteral(" GB");
  if (a >= 1e6) return QString::number(bytes / 1e6, 'f', 1) + QStringLiteral(" MB");
  if (a >= 1e3) return QString::number(bytes / 1e3, 'f', 1) + QStringLiteral(" kB");
  return QString::number(bytes, 'f', 0) + QStringLiteral(" B");
}

QString formatPercent(double fraction) {
  return QString::number(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

QString formatTokens(double tokens) {
  if (std::fabs(tokens) >= 1e6) return QString::number(tokens / 1e6, 'f', 2) + QStringLiteral("M");
  // The C locale with thousands separators: the same output whatever the user's locale.
  QLocale c = QLocale::c();
  c.setNumberOptions(QLocale::DefaultNumberOptions);
  return c.toString(static_cast<qlonglong>(std::llround(tokens)));
}

QString formatRate(double tps) {
  if (tps >= 1e6) return QString::number(tps / 1e6, 'f', 2) + QStringLiteral("M tok/s");
  if (tps >= 1e3) return QString::number(tps / 1e3, 'f', 1) + QStringLiteral("K tok/s");
  return QString::number(tps, 'f', 0) + QStringLiteral(" tok/s");
}

}  // namespace slimpack::ui
