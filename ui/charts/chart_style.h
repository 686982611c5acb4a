#pragma once
// Common look of the small summary charts (Qt Charts stays behind ui/charts: it is deprecated
// upstream, so nothing outside this folder depends on it).
#include <QPoint>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QWidget;
QT_END_NAMESPACE

namespace slimpack::ui {

// Compact margins, no animation, legend at the bottom, light or dark chart theme.
void styleChart(QChart* chart, bool dark);
// A chart view with antialiasing and a small minimum size that fills `host` edge to edge, its
// chart styled light (the owner re-styles it when the theme changes).
QChartView* makeChartView(QWidget* host, QChart* chart);
// Hover tooltips for a chart's points, answered on the view's own tooltip event: `textAt` gets a
// position in the view's viewport and returns the text of the point under it ("" for none). A
// tooltip shown from QXYSeries::hovered did not last: the graphics view answers the tooltip event
// that follows a resting mouse itself, and with no item tooltip in the scene it hid the text.
void setPointTooltips(QChartView* view, std::function<QString(const QPoint&)> textAt);
// Within this many pixels of a point the mouse is over it (markers are 6 to 10 px wide).
constexpr double kPointHitPx = 8.0;
// Short token label: 512, 4K, 128K, 1M.
QString shortTokens(double tokens);

// A value axis from 0 with round ticks: the step is 1, 2 or 5 times a power of ten, the fewest
// ticks (at most max_ticks) whose last one reaches `hi`. nice_zero_based_axis(88, 6) = {100, 6}.
struct NiceAxis {
  double max = 1.0;
  int ticks = 2;
};
NiceAxis nice_zero_based_axis(double hi, int max_ticks);

}  // namespace slimpack::ui
