#include "charts/memory_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QVBoxLayout>
#include <QValueAxis>

#include "charts/chart_style.h"

namespace slimpack::ui {

MemoryChart::MemoryChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(makeChartView(chart_)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  styleChart(chart_, dark_);
  chart_->setTitle(tr("Peak memory per stage (GB)"));
}

void MemoryChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  setSnapshot(snapshot_);
}

void MemoryChart::setSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  if (!snapshot) return;
  const SimResult& sim = snapshot->sim;
  const int stages =
      sim.replicas.empty() ? 0 : static_cast<int>(sim.replicas.front().stages.size());
  auto* bars = new QBarSeries;
  double top = snapshot->memory_cap_bytes / 1e9;
  // One set per replica (at most 8: beyond that the bars are too thin to read; the table has all).
  const std::size_t shown = std::min<std::size_t>(sim.replicas.size(), 8);
  for (std::size_t r = 0; r < shown; ++r) {
    auto* set = new QBarSet(shown > 1 ? tr("replica %1").arg(r) : tr("peak"));
    for (const auto& st : sim.replicas[r].stages) {
      *set << st.peak_memory_bytes / 1e9;
      top = std::max(top, st.peak_memory_bytes / 1e9);
    }
    bars->append(set);
  }
  chart_->addSeries(bars);
  QStringList cats;
  for (int s = 0; s < stages; ++s) cats << QString::number(s);
  auto* x = new QBarCategoryAxis;
  x->append(cats);
  x->setTitleText(tr("stage"));
  auto* y = new QValueAxis;
  y->setRange(0, std::max(1.0, top * 1.1));
  y->setLabelFormat("%.0f");
  chart_->addAxis(x, Qt::AlignBottom);
  chart_->addAxis(y, Qt::AlignLeft);
  bars->attachAxis(x);
  bars->attachAxis(y);
  if (snapshot->memory_cap_bytes > 0 && stages > 0) {
    // The cap spans the category axis: a hidden value axis over [-0.5, n - 0.5] aligns with it.
    auto* cap = new QLineSeries;
    cap->setName(tr("cap %1 GB").arg(snapshot->memory_cap_bytes / 1e9, 0, 'f', 0));
    cap->append(-0.5, snapshot->memory_cap_bytes / 1e9);
    cap->append(stages - 0.5, snapshot->memory_cap_bytes / 1e9);
    QPen pen(QColor(0xd6, 0x45, 0x45));
    pen.setWidth(2);
    pen.setStyle(Qt::DashLine);
    cap->setPen(pen);
    chart_->addSeries(cap);
    auto* xv = new QValueAxis;
    xv->setRange(-0.5, stages - 0.5);
    xv->setVisible(false);
    chart_->addAxis(xv, Qt::AlignTop);
    cap->attachAxis(xv);
    cap->attachAxis(y);
  }
}

}  // namespace slimpack::ui
