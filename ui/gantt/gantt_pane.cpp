#include "gantt/gantt_pane.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gantt/gantt_view.h"
#include "render/time_axis.h"

namespace slimpack {

GanttPane::GanttPane(GanttView* view, QWidget* parent)
    : QWidget(parent), view_(view), scroll_(new QScrollBar(Qt::Horizontal)), zoom_(new QLabel) {
  zoom_->setObjectName("gantt.zoom");
  scroll_->setObjectName("gantt.scroll");
  scroll_->setToolTip(tr("Where the visible range sits in the iteration: drag to pan"));
  auto* row = new QHBoxLayout;
  row->setContentsMargins(4, 0, 4, 2);
  row->addWidget(zoom_);
  row->addWidget(scroll_, 1);
  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(0, 0, 0, 0);
  col->setSpacing(0);
  col->addWidget(view_, 1);
  col->addLayout(row);
  connect(view_, &GanttView::viewChanged, this, [this] { sync(); });
  connect(view_, &GanttView::modelChanged, this, [this] { sync(); });
  connect(scroll_, &QScrollBar::valueChanged, this, [this](int v) {
    if (syncing_ || !view_->model()) return;
    const TimeRange e = view_->model()->time_extent();
    const TimeRange r = view_->viewRange();
    const double t0 = e.t0 + e.span() * v / kScrollSteps;
    view_->setViewRange(t0, t0 + r.span());
  });
  sync();
}

void GanttPane::setChromeVisible(bool visible) {
  zoom_->setVisible(visible);
  scroll_->setVisible(visible);
}

void GanttPane::sync() {
  syncing_ = true;
  const auto& model = view_->model();
  if (!model || !(model->time_extent().span() > 0)) {
    scroll_->setRange(0, 0);
    zoom_->setText(tr("No schedule yet"));
    syncing_ = false;
    return;
  }
  const TimeRange e = model->time_extent();
  const TimeRange r = view_->viewRange();
  const double per_step = e.span() / kScrollSteps;
  const int page = std::clamp(static_cast<int>(std::lround(r.span() / per_step)), 1, kScrollSteps);
  scroll_->setPageStep(page);
  scroll_->setSingleStep(std::max(1, page / 10));
  scroll_->setRange(0, std::max(0, kScrollSteps - page));
  scroll_->setValue(
      std::clamp(static_cast<int>(std::lround((r.t0 - e.t0) / per_step)), 0, scroll_->maximum()));
  const std::string unit = model->time_unit();
  const auto t = [&unit](double v) { return QString::fromStdString(format_time(v, unit)); };
  if (view_->isFitted()) {
    zoom_->setText(tr("Whole iteration: %1").arg(t(e.t1)));
    zoom_->setToolTip(tr("New results are fitted to the window"));
  } else {
    zoom_->setText(tr("Zoomed: %1 – %2 of %3 (Ctrl+0 fits)")
                       .arg(t(std::max(r.t0, e.t0)), t(std::min(r.t1, e.t1)), t(e.t1)));
    zoom_->setToolTip(
        tr("New results keep this zoom; Ctrl+0 (View > Fit to Window) shows the "
           "whole iteration and fits the next results again"));
  }
  syncing_ = false;
}

}  // namespace slimpack
