#include "window/about_dialog.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QSysInfo>
#include <QtGlobal>
#include <nlohmann/json.hpp>

#include "solver/strategy.h"

namespace slimpack::ui {

QString aboutText() {
  QString compiler;
#if defined(__clang__)
  compiler = QStringLiteral("Clang %1.%2").arg(__clang_major__).arg(__clang_minor__);
#elif defined(__GNUC__)
  compiler = QStringLiteral("GCC %1.%2").arg(__GNUC__).arg(__GNUC_MINOR__);
#else
  compiler = QStringLiteral("unknown compiler");
#endif
  QStringList strategies;
  for (const auto& s : strategy_names()) strategies << QString::fromStdString(s);
  const QString version = QCoreApplication::applicationVersion().isEmpty()
                              ? QStringLiteral("development build")
                              : QCoreApplication::applicationVersion();
  return QObject::tr(
             "<h3>SlimPack Explorer %1</h3>"
             "<p>Pipeline-parallel training schedules with sliced sequences and "
             "asymmetric forward/backward MicroPacks: workload, plan, simulated Gantt.</p>"
             "<p>Strategies: %2<br>Qt %3 (built with %4)<br>%5, nlohmann/json %6.%7.%8"
             "<br>%9</p>")
      .arg(version, strategies.join(", "), QString::fromLatin1(qVersion()),
           QStringLiteral(QT_VERSION_STR), compiler)
      .arg(NLOHMANN_JSON_VERSION_MAJOR)
      .arg(NLOHMANN_JSON_VERSION_MINOR)
      .arg(NLOHMANN_JSON_VERSION_PATCH)
      .arg(QSysInfo::prettyProductName());
}

void showAboutDialog(QWidget* parent) {
  QMessageBox::about(parent, QObject::tr("About SlimPack Explorer"), aboutText());
}

}  // namespace slimpack::ui
