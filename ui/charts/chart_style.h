#pragma once
// Common look of the small summary charts (Qt Charts stays behind ui/charts: it is deprecated
// upstream, so nothing outside this folder depends on it).
#include <QString>

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
