#include "charts/dataset_chart.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/chart_style.h"
#include "models/format.h"

namespace slimpack::ui {
namespace {

// Half the width of a strategy's column: its curve runs from -kHalf to +kHalf around the column.
constexpr double kHalf = 0.35;

QColor strategyColor(int i) {
  static const QColor kColors[] = {QColor(0x88, 0x88, 0x88), QColor(0x2c, 0x7f, 0xb8),
                                   QColor(0x41, 0xab, 0x5d), QColor(0xe6, 0x7e, 0x22),
                                   QColor(0x8e, 0x44, 0xad), QColor(0xc0, 0x39, 0x2b)};
  return kColors[static_cast<std::size_t>(i) % std::size(kColors)];
}

QScatterSeries* markSeries(const QString& name, QScatterSeries::MarkerShape shape, double size) {
  auto* s = new QScatterSeries;
  s->setName(name);
  s->setMarkerShape(shape);
  s->setMarkerSize(size);
  return s;
}

}  // namespace

DatasetChart::DatasetChart(QWidget* parent)
    : QWidget(parent),
      chart_(new QChart),
      view_(makeChartView(this, chart_)),
      x_axis_(new QCategoryAxis),
      y_axis_(new QValueAxis),
      median_(markSeries(tr("median"), QScatterSeries::MarkerShapeRectangle, 15)),
      p95_(markSeries(tr("p95"), QScatterSeries::MarkerShapeTriangle, 15)),
      worst_(markSeries(tr("worst batch (click: show it)"), QScatterSeries::MarkerShapeStar, 18)),
      solver_(new QLabel) {
  solver_->setWordWrap(true);
  solver_->setTextFormat(Qt::PlainText);
  layout()->addWidget(solver_);
  x_axis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
  y_axis_->setTitleText(tr("iteration time (s)"));
  chart_->addAxis(x_axis_, Qt::AlignBottom);
  chart_->addAxis(y_axis_, Qt::AlignLeft);
  for (QScatterSeries* s : {median_, p95_, worst_}) {
    s->setColor(Qt::transparent);
    s->setBorderColor(QColor(0x20, 0x20, 0x20));
    connectPoints(s, -1);
  }
  worst_->setColor(QColor(0xd6, 0x45, 0x45));
  rebuild();
}

void DatasetChart::setResult(std::shared_ptr<const DatasetResult> result) {
  result_ = std::move(result);
  rebuild();
}

void DatasetChart::setDark(bool dark) {
  dark_ = dark;
  styleChart(chart_, dark);
  rebuild();
}

// `strategy` -1: a mark series over every column; the column is found from the point.
void DatasetChart::connectPoints(QScatterSeries* series, int strategy) {
  connect(series, &QXYSeries::hovered, this, [this, strategy](const QPointF& p, bool on) {
    if (!on) return QToolTip::hideText();
    const int s = strategy >= 0 ? strategy : strategyAt(p);
    const int batch = batchAt(s, p);
    if (batch >= 0) QToolTip::showText(QCursor::pos(), batchText(s, batch), this);
  });
  connect(series, &QXYSeries::clicked, this, [this, strategy](const QPointF& p) {
    const int batch = batchAt(strategy >= 0 ? strategy : strategyAt(p), p);
    if (batch >= 0) emit batchClicked(batch);
  });
}

int DatasetChart::strategyAt(const QPointF& value) const {
  if (!result_ || result_->strategies.empty()) return -1;
  const auto last = static_cast<int>(result_->strategies.size()) - 1;
  return std::clamp(static_cast<int>(std::lround(value.x())), 0, last);
}

QPointF DatasetChart::pointOf(int strategy, int batch) const {
  if (!result_ || strategy < 0 || strategy >= static_cast<int>(order_.size())) return {};
  const std::vector<int>& order = order_[static_cast<std::size_t>(strategy)];
  const auto at = std::find(order.begin(), order.end(), batch);
  if (at == order.end()) return {};
  const double n = static_cast<double>(order.size());
  const double rank = static_cast<double>(at - order.begin());
  const double x = strategy + (n > 1 ? -kHalf + 2 * kHalf * rank / (n - 1) : 0.0);
  const DatasetStrategy& s = result_->strategies[static_cast<std::size_t>(strategy)];
  return {x, s.cells[static_cast<std::size_t>(batch)].iteration_s};
}

int DatasetChart::batchAt(int strategy, const QPointF& value) const {
  if (!result_ || strategy < 0 || strategy >= static_cast<int>(order_.size())) return -1;
  const double ymax = std::max(1e-12, y_axis_->max());
  int best = -1;
  double best_d = 0.0;
  for (int b : order_[static_cast<std::size_t>(strategy)]) {
    const QPointF p = pointOf(strategy, b);
    const double dx = p.x() - value.x(), dy = (p.y() - value.y()) / ymax;
    const double d = dx * dx + dy * dy;
    if (best < 0 || d < best_d) best = b, best_d = d;
  }
  return best;
}

QString DatasetChart::batchText(int strategy, int batch) const {
  if (!result_ || strategy < 0 || batch < 0) return {};
  const DatasetStrategy& s = result_->strategies[static_cast<std::size_t>(strategy)];
  const DatasetCell& c = s.cells[static_cast<std::size_t>(batch)];
  const DatasetBatch& id = result_->batches[static_cast<std::size_t>(batch)];
  return tr("%1, %2: %3 sequences, %4 tokens\niteration %5, peak %6, solver %7\nClick to show "
            "this batch in the Gantt")
      .arg(QString::fromStdString(s.strategy),
           QString::fromStdString(dataset_batch_name(*result_, batch)),
           formatTokens(double(id.sequences)), formatTokens(double(id.tokens)),
           formatTime(c.iteration_s), formatBytes(c.peak_memory_bytes), formatTime(c.solver_s));
}

void DatasetChart::clearStrategySeries() {
  for (QScatterSeries* s : batches_) {
    chart_->removeSeries(s);
    delete s;
  }
  batches_.clear();
  order_.clear();
}

void DatasetChart::rebuild() {
  clearStrategySeries();
  // The marks are added again after the strategies' points, so they are drawn over them.
  for (QScatterSeries* s : {median_, p95_, worst_})
    if (s->chart() != nullptr) chart_->removeSeries(s);
  for (const QString& label : x_axis_->categoriesLabels()) x_axis_->remove(label);
  QList<QPointF> medians, p95s, worsts;
  QStringList solver_parts;
  double ymax = 0.0;
  const int m = result_ ? static_cast<int>(result_->strategies.size()) : 0;
  for (int i = 0; i < m; ++i) {
    const DatasetStrategy& s = result_->strategies[static_cast<std::size_t>(i)];
    std::vector<int> order;
    for (std::size_t b = 0; b < s.cells.size(); ++b)
      if (s.cells[b].solved()) order.push_back(static_cast<int>(b));
    std::stable_sort(order.begin(), order.end(), [&s](int a, int b) {
      return s.cells[static_cast<std::size_t>(a)].iteration_s <
             s.cells[static_cast<std::size_t>(b)].iteration_s;
    });
    order_.push_back(order);
    auto* series = new QScatterSeries;
    series->setName(QString::fromStdString(s.strategy));
    series->setMarkerSize(7);
    series->setColor(strategyColor(i));
    series->setBorderColor(strategyColor(i));
    QList<QPointF> points;
    for (int b : order) points.append(pointOf(i, b));
    series->replace(points);
    chart_->addSeries(series);
    series->attachAxis(x_axis_);
    series->attachAxis(y_axis_);
    connectPoints(series, i);
    batches_.push_back(series);
    // The median and p95 are batches (nearest rank): marked at their points.
    if (!order.empty()) {
      const auto n = static_cast<double>(order.size());
      const auto at = [&](double q) {
        const auto rank =
            std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(q * n)), 1, order.size());
        return pointOf(i, order[rank - 1]);
      };
      medians.append(at(0.5));
      p95s.append(at(0.95));
      worsts.append(pointOf(i, s.worst_batch));
      ymax = std::max(ymax, s.iteration_s->max);
    }
    // The solver beside the iteration, on the line under the plot (solverLine()).
    solver_parts << (s.solver_s
                         ? tr("%1 %2 (%3)")
                               .arg(QString::fromStdString(s.strategy), formatTime(s.solver_s->p95),
                                    formatPercent(s.solver_s->p95 / s.iteration_s->median))
                         : tr("%1: no batch solved").arg(QString::fromStdString(s.strategy)));
    // Axis labels are rich text: the name escaped.
    x_axis_->append(QString::fromStdString(s.strategy).toHtmlEscaped(), i + 0.5);
  }
  for (QScatterSeries* s : {median_, p95_, worst_}) {
    chart_->addSeries(s);
    s->attachAxis(x_axis_);
    s->attachAxis(y_axis_);
  }
  solver_->setText(solver_parts.isEmpty()
                       ? QString()
                       : tr("Solver p95 per batch (share of the median iteration): %1.")
                             .arg(solver_parts.join(QStringLiteral(" · "))));
  solver_->setVisible(!solver_parts.isEmpty());
  median_->replace(medians);
  p95_->replace(p95s);
  worst_->replace(worsts);
  for (QScatterSeries* s : {median_, p95_, worst_})
    s->setBorderColor(dark_ ? QColor(0xe0, 0xe0, 0xe0) : QColor(0x20, 0x20, 0x20));
  x_axis_->setStartValue(-0.5);
  x_axis_->setRange(-0.5, std::max(0, m) - 0.5 + (m == 0 ? 1.0 : 0.0));
  const NiceAxis y = ymax > 0.0 ? nice_zero_based_axis(ymax * 1.05, 6) : NiceAxis{1.0, 6};
  y_axis_->setRange(0.0, y.max);
  y_axis_->setTickCount(y.ticks);
  if (!result_)
    chart_->setTitle(tr("Press Run: every batch of the dataset, per strategy, appears here"));
  else if (ymax <= 0.0)
    chart_->setTitle(tr("No strategy solved a batch: the table gives the first reason"));
  else
    chart_->setTitle({});
}

}  // namespace slimpack::ui
