#include "panels/sweep_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "charts/sweep_chart.h"

namespace slimpack::ui {
namespace {
ConfigSpec withoutSlice(ConfigSpec c) {
  c.slice_size = 0;
  return c;
}
}  // namespace

SweepPanel::SweepPanel(QWidget* parent)
    : QWidget(parent),
      chart_(new SweepChart),
      run_(new QPushButton(tr("Run sweep"))),
      message_(new QLabel) {
  run_->setToolTip(tr("Solve and simulate the current batch for S = 512 ... longest sequence"));
  message_->setWordWrap(true);
  // The button and message sit in a narrow column beside the chart so the chart keeps the height.
  auto* side = new QVBoxLayout;
  side->addWidget(run_);
  side->addWidget(message_);
  side->addStretch(1);
  message_->setMaximumWidth(run_->sizeHint().width() * 2);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(side);
  layout->addWidget(chart_, 1);
  connect(run_, &QPushButton::clicked, this, &SweepPanel::sweepRequested);
  connect(chart_, &SweepChart::sliceSelected, this, &SweepPanel::sliceSelected);
}

bool SweepPanel::isStale(const ExplorerSnapshot& s) const {
  return !has_basis_ || !(s.workload == basis_workload_) ||
         !(withoutSlice(s.config) == withoutSlice(basis_config_));
}

void SweepPanel::setSnapshot(const SnapshotPtr& snapshot) {
  if (snapshot && snapshot->plan) chart_->setCurrentSlice(snapshot->plan->slice_size);
}

void SweepPanel::setPoints(const std::vector<SweepPoint>& points, const SnapshotPtr& basis) {
  chart_->setPoints(points);
  if (basis) {
    basis_workload_ = basis->workload;
    basis_config_ = basis->config;
    has_basis_ = true;
    if (basis->plan) chart_->setCurrentSlice(basis->plan->slice_size);
  }
  int failed = 0;
  for (const auto& p : points) failed += p.ok ? 0 : 1;
  message_->setText(failed ? tr("%1 of %2 slice sizes infeasible").arg(failed).arg(points.size())
                           : QString());
}

void SweepPanel::setRunning(bool running) {
  run_->setEnabled(!running);
  if (running) message_->setText(tr("sweeping…"));
}

void SweepPanel::setMessage(const QString& text) {
  message_->setText(text);
}
void SweepPanel::setDark(bool dark) {
  chart_->setDark(dark);
}

}  // namespace slimpack::ui
