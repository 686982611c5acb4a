#include "panels/metrics_panel.h"

#include <QHeaderView>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "models/metrics_model.h"
#include "models/stage_model.h"

namespace slimpack::ui {
namespace {
QTableView* makeTable(QAbstractItemModel* model) {
  auto* view = new QTableView;
  view->setModel(model);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setStretchLastSection(true);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setWordWrap(false);
  view->setAlternatingRowColors(true);
  return view;
}
}  // namespace

MetricsPanel::MetricsPanel(QWidget* parent)
    : QWidget(parent), metrics_(new MetricsModel(this)), stages_(new StageModel(this)) {
  metrics_view_ = makeTable(metrics_);
  stage_view_ = makeTable(stages_);
  // Columns as wide as their contents (the last one takes the rest), so Headroom shows whole.
  stage_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  stage_view_->horizontalHeader()->setStretchLastSection(true);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(metrics_view_);
  split->addWidget(stage_view_);
  // About 20 metrics against a row per stage (4 by default): the metrics take the larger share.
  split->setStretchFactor(0, 5);
  split->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
}

void MetricsPanel::setSnapshot(const SnapshotPtr& snapshot) {
  metrics_->setSnapshot(snapshot);
  stages_->setSnapshot(snapshot);
  metrics_view_->resizeColumnToContents(MetricsModel::Name);
  stage_view_->resizeColumnsToContents();
}

}  // namespace slimpack::ui
