#include "models/format.h"

#include <QObject>

#include <QLocale>
#include <QRegularExpression>
#include <cmath>

#include "common/format.h"

namespace slimpack::ui {

// Times, bytes, percentages and rates come from core/common/format.h, as in the CLI and the
// image exports: the same value reads the same everywhere.
QString formatTime(double seconds, const QString& unit) {
  return QString::fromStdString(format_time(seconds, unit.toStdString()));
}

QString formatBytes(double bytes) {
  return QString::fromStdString(format_bytes(bytes));
}

QString formatPercent(double fraction) {
  return QString::fromStdString(format_percent(fraction));
}

QString formatChange(double now, double before) {
  if (!(before > 0) || !std::isfinite(now)) return {};
  const double change = now / before - 1.0;
  if (std::fabs(change) < 0.0005) return QObject::tr("same as previous");
  // A real minus sign, as the figures elsewhere; the magnitude through the one formatter.
  const QString sign = change < 0 ? QStringLiteral("\u2212") : QStringLiteral("+");
  return QObject::tr("%1%2 vs previous").arg(sign, formatPercent(std::fabs(change)));
}

QString formatTokens(double tokens) {
  if (std::fabs(tokens) >= 1e6) return QString::fromStdString(format_count(tokens));
  // The C locale with thousands separators: the same output whatever the user's locale.
  QLocale c = QLocale::c();
  c.setNumberOptions(QLocale::DefaultNumberOptions);
  return c.toString(static_cast<qlonglong>(std::llround(tokens)));
}

QString formatRate(double tps) {
  return QString::fromStdString(format_rate(tps));
}

QString formatRatio(double ratio) {
  return QString::fromStdString(format_ratio(ratio));
}

}  // namespace slimpack::ui

namespace slimpack::ui {

QString readableMessage(const std::string& message, int max_chars) {
  // Keep valid UTF-8 text; escape control bytes and bytes that do not decode.
  QString out;
  const auto* p = reinterpret_cast<const unsigned char*>(message.data());
  const std::size_t n = message.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= n;
    for (int k = 1; ok && k < len; ++k) ok = (p[i + static_cast<std::size_t>(k)] >> 6) == 0x2;
    if (ok && len == 1 && c < 0x20 && c != '\n' && c != '\t') ok = false;
    if (ok && len == 1 && c == 0x7f) ok = false;
    if (!ok) {
      out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
      ++i;
      continue;
    }
    out += QString::fromUtf8(message.data() + i, len);
    i += static_cast<std::size_t>(len);
  }
  return readableMessage(out, max_chars);
}

QString readableMessage(const QString& message, int max_chars) {
  // "needs 93100000000 bytes" -> "needs 93.1 GB": the numbers a user compares with a datasheet.
  static const QRegularExpression bytes(QStringLiteral("(\\d{4,}(?:\\.\\d+)?) bytes"));
  QString out;
  qsizetype last = 0;
  auto it = bytes.globalMatch(message);
  while (it.hasNext()) {
    const QRegularExpressionMatch m = it.next();
    out += message.mid(last, m.capturedStart() - last);
    out += formatBytes(m.captured(1).toDouble());
    last = m.capturedEnd();
  }
  out += message.mid(last);
  if (max_chars > 1 && out.size() > max_chars) out = out.left(max_chars - 1) + QChar(0x2026);
  return out;
}

QString describeConfig(const ConfigSpec& c) {
  QString s =
      QStringLiteral("%1 · p=%2 d=%3 t=%4 · S %5")
          .arg(QString::fromStdString(c.strategy))
          .arg(c.pp)
          .arg(c.dp)
          .arg(c.tp)
          .arg(c.slice_size > 0 ? formatTokens(double(c.slice_size)) : QStringLiteral("auto"));
  s += QStringLiteral(" · ") + QString::fromLatin1(schedule_name(c.schedule));
  return s;
}

}  // namespace slimpack::ui
