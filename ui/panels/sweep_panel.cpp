#include "panels/sweep_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "charts/sweep_chart.h"
#include "models/format.h"
#include "panels/state_frame.h"

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
  auto* hint = new QLabel(tr("Click a point to use that S."));
  hint->setWordWrap(true);
  side->addWidget(run_);
  side->addWidget(hint);
  side->addWidget(message_);
  side->addStretch(1);
  message_->setMaximumWidth(run_->sizeHint().width() * 2);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  frame_ = new StateFrame(chart_);
  layout->addLayout(side);
  layout->addWidget(frame_, 1);
  connect(run_, &QPushButton::clicked, this, &SweepPanel::sweepRequested);
  connect(chart_, &SweepChart::sliceSelected, this, &SweepPanel::sliceSelected);
}

bool SweepPanel::isStale(const ExplorerSnapshot& s) const {
  return isStaleFor(s.workload, s.config, s.plan_file);
}

bool SweepPanel::isStaleFor(const WorkloadSpec& w, const ConfigSpec& c,
                            const std::string& plan_file) const {
  // An opened plan sweeps the plan's batch, the workload its own: closing the plan changes the
  // basis even though the workload fields did not move.
  return !has_basis_ || !(w == basis_workload_) || plan_file != basis_plan_file_ ||
         !(withoutSlice(c) == withoutSlice(basis_config_));
}

void SweepPanel::setSnapshot(const SnapshotPtr& snapshot) {
  if (snapshot && snapshot->plan) chart_->setCurrentSlice(snapshot->plan->slice_size);
}

void SweepPanel::setPoints(const std::vector<SweepPoint>& points, const SnapshotPtr& basis) {
  chart_->setPoints(points);
  if (basis) {
    basis_workload_ = basis->workload;
    basis_config_ = basis->config;
    basis_plan_file_ = basis->plan_file;
    has_basis_ = true;
    if (basis->plan) chart_->setCurrentSlice(basis->plan->slice_size);
  }
  QStringList failed;
  for (const auto& p : points)
    if (!p.ok) failed << formatTokens(double(p.slice_size));
  message_->setText(failed.isEmpty() ? QString()
                                     : tr("Infeasible (red diamonds, hover for why): S = %1")
                                           .arg(failed.join(QStringLiteral(", "))));
}

void SweepPanel::setRunning(bool running) {
  run_->setEnabled(!running);
  if (running) {
    message_->setText(tr("sweeping…"));
  } else if (message_->text() == tr("sweeping…")) {
    message_->setText(tr("cancelled"));
  }
}

void SweepPanel::setMessage(const QString& text) {
  message_->setText(text);
}
void SweepPanel::setDark(bool dark) {
  chart_->setDark(dark);
}

}  // namespace slimpack::ui
