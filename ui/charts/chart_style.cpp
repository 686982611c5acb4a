#include "charts/chart_style.h"

#include <QChart>
#include <QChartView>
#include <QLegend>

namespace slimpack::ui {

void styleChart(QChart* chart, bool dark) {
  chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->setBackgroundRoundness(0);
  chart->legend()->setAlignment(Qt::AlignBottom);
  QFont f = chart->titleFont();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  f.setBold(true);
  chart->setTitleFont(f);
}

QChartView* makeChartView(QChart* chart) {
  auto* view = new QChartView(chart);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(220, 160);
  return view;
}

QString shortTokens(double t) {
  if (t >= 1048576 && static_cast<long long>(t) % 1048576 == 0)
    return QString::number(t / 1048576) + 'M';
  if (t >= 1024 && static_cast<long long>(t) % 1024 == 0) return QString::number(t / 1024) + 'K';
  return QString::number(t, 'f', 0);
}

}  // namespace slimpack::ui
