#pragma once
// Histogram of the batch's sequence lengths in power-of-two bins (count per bin).
#include <QWidget>
#include <vector>

#include "common/sequence.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace slimpack::ui {

class LengthHistogramChart : public QWidget {
  Q_OBJECT
 public:
  explicit LengthHistogramChart(QWidget* parent = nullptr);
  void setLengths(const std::vector<Tokens>& lengths);
  void setDark(bool dark);

 private:
  void rebuild();
  QChart* chart_;
  QChartView* view_;
  std::vector<Tokens> lengths_;
  bool built_ = false;
  bool dark_ = false;
};

}  // namespace slimpack::ui
