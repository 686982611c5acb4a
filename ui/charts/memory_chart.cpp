#include "charts/memory_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include "charts/chart_style.h"
#include "models/format.h"

namespace slimpack::ui {
namespace {
// At most 8 replicas get a bar set: beyond that the bars are too thin to read; the table has all.
constexpr std::size_t kMaxSets = 8;
}  // namespace

MemoryChart::MemoryChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(this, chart_)) {
  // No chart title: the dock says what this is, and a laptop's dock has no height to spare.
}

void MemoryChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  // The theme recolours every series; rebuild so the cap line gets its red dashes back.
  shape_ = {};
  setSnapshot(snapshot_);
}

void MemoryChart::setSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  Shape shape;
  if (snapshot) {
    const SimResult& sim = snapshot->sim;
    shape.stages = sim.replicas.empty() ? 0 : static_cast<int>(sim.replicas.front().stages.size());
    shape.sets = static_cast<int>(std::min(sim.replicas.size(), kMaxSets));
    shape.cap = snapshot->memory_cap_bytes > 0 && shape.stages > 0;
  }
  // A live re-solve keeps the shape: update the values in place. Rebuilding series and axes
  // costs QtCharts several milliseconds of GUI-thread layout on every slider step.
  if (!(shape == shape_) || !bars_) rebuild(shape);
  if (snapshot) fill(*snapshot);
}

void MemoryChart::rebuild(const Shape& shape) {
  shape_ = shape;
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  bars_ = nullptr;
  cap_ = nullptr;
  if (shape.stages == 0) return;
  bars_ = new QBarSeries;
  for (int r = 0; r < shape.sets; ++r) {
    auto* set = new QBarSet(shape.sets > 1 ? tr("replica %1").arg(r) : tr("peak"));
    // One replica: the histogram's blue in both themes (the dark theme would pick green).
    if (shape.sets == 1) set->setColor(QColor(0x4c, 0x9b, 0xe8));
    for (int s = 0; s < shape.stages; ++s) *set << 0.0;
    bars_->append(set);
  }
  chart_->addSeries(bars_);
  QStringList cats;
  for (int s = 0; s < shape.stages; ++s) cats << QString::number(s);
  auto* x = new QBarCategoryAxis;
  x->append(cats);
  x->setTitleText(tr("stage"));
  auto* y = new QValueAxis;
  y->setLabelFormat("%.0f");
  y->setTitleText(tr("GB"));
  // One replica: the bars are "peak" and the cap is named on the axis; no legend row needed.
  chart_->legend()->setVisible(shape.sets > 1);
  chart_->addAxis(x, Qt::AlignBottom);
  chart_->addAxis(y, Qt::AlignLeft);
  bars_->attachAxis(x);
  bars_->attachAxis(y);
  if (!shape.cap) return;
  // The cap spans the category axis: a hidden value axis over [-0.5, n - 0.5] aligns with it.
  cap_ = new QLineSeries;
  QPen pen(QColor(0xd6, 0x45, 0x45));
  pen.setWidth(2);
  pen.setStyle(Qt::DashLine);
  cap_->setPen(pen);
  chart_->addSeries(cap_);
  auto* xv = new QValueAxis;
  xv->setRange(-0.5, shape.stages - 0.5);
  xv->setVisible(false);
  chart_->addAxis(xv, Qt::AlignTop);
  cap_->attachAxis(xv);
  cap_->attachAxis(y);
}

void MemoryChart::fill(const ExplorerSnapshot& snapshot) {
  if (!bars_) return;
  const SimResult& sim = snapshot.sim;
  const double cap = snapshot.memory_cap_bytes / 1e9;
  double top = cap;
  const auto sets = bars_->barSets();
  for (int r = 0; r < shape_.sets; ++r) {
    const auto& stages = sim.replicas[static_cast<std::size_t>(r)].stages;
    for (int s = 0; s < shape_.stages && s < static_cast<int>(stages.size()); ++s) {
      const double gb = stages[static_cast<std::size_t>(s)].peak_memory_bytes / 1e9;
      sets[r]->replace(s, gb);
      top = std::max(top, gb);
    }
  }
  const auto vertical = chart_->axes(Qt::Vertical);
  if (auto* y = vertical.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(vertical.front())) {
    // Round ticks (0, 20, 40, ...) up to the first one 10 % above the highest bar or the cap.
    const NiceAxis nice = nice_zero_based_axis(top > 0 ? top * 1.1 : 1.0, 7);
    y->setRange(0.0, nice.max);
    y->setTickCount(nice.ticks);
    // Enough decimals that neighbouring ticks differ (a plan with tiny memory read "1,1,1,0").
    const double step = nice.ticks > 1 ? nice.max / (nice.ticks - 1) : nice.max;
    y->setLabelFormat(step >= 1 ? "%.0f" : step >= 0.1 ? "%.1f" : step >= 0.01 ? "%.2f" : "%.3g");
  }
  if (auto* y = vertical.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(vertical.front())) {
    const bool modelled = top > 0;
    // The cap is the dashed line (its value in the line's name and the Peak memory metric): the
    // axis title stays short enough for the dock's narrow chart.
    y->setTitleText(modelled ? tr("GB") : QString());
    // A plan with explicit times has no memory model: say so instead of an empty 0..1 scale.
    chart_->setTitle(modelled ? QString() : tr("Not modelled (explicit times)"));
    y->setLabelsVisible(modelled);
  }
  if (cap_) {
    cap_->setName(tr("cap %1").arg(formatBytes(cap * 1e9)));
    cap_->replace({QPointF(-0.5, cap), QPointF(shape_.stages - 0.5, cap)});
  }
}

}  // namespace slimpack::ui
