#include "charts/chart_style.h"

#include <QChart>
#include <QChartView>
#include <QHelpEvent>
#include <QLegend>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

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

QChartView* makeChartView(QWidget* host, QChart* chart) {
  auto* view = new QChartView(chart);
  view->setRenderHint(QPainter::Antialiasing);
  // Small enough for a laptop's docks; the axes stay readable down to this size.
  view->setMinimumSize(200, 110);
  auto* layout = new QVBoxLayout(host);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view);
  styleChart(chart, false);
  return view;
}

namespace {
class PointTooltips : public QObject {
 public:
  PointTooltips(QWidget* viewport, std::function<QString(const QPoint&)> text_at)
      : QObject(viewport), text_at_(std::move(text_at)) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::ToolTip) return QObject::eventFilter(watched, event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = text_at_(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, static_cast<QWidget*>(watched));
    return true;  // answered: the graphics view would hide it again
  }

 private:
  std::function<QString(const QPoint&)> text_at_;
};
}  // namespace

void setPointTooltips(QChartView* view, std::function<QString(const QPoint&)> textAt) {
  view->viewport()->setMouseTracking(true);
  view->viewport()->installEventFilter(new PointTooltips(view->viewport(), std::move(textAt)));
}

QString shortTokens(double t) {
  if (t >= 1048576 && static_cast<long long>(t) % 1048576 == 0)
    return QString::number(t / 1048576) + 'M';
  if (t >= 1024 && static_cast<long long>(t) % 1024 == 0) return QString::number(t / 1024) + 'K';
  return QString::number(t, 'f', 0);
}

NiceAxis nice_zero_based_axis(double hi, int max_ticks) {
  if (!(hi > 0) || max_ticks < 2) return {};
  const int intervals = max_ticks - 1;
  double decade = std::pow(10.0, std::floor(std::log10(hi / intervals)));
  for (;; decade *= 10.0) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double step = m * decade;
      const double n = std::ceil(hi / step - 1e-9);
      if (n <= intervals) return {n * step, static_cast<int>(n) + 1};
    }
  }
}

}  // namespace slimpack::ui
