#include "panels/metrics_panel.h"

#include <QEvent>
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
  metrics_view_->horizontalHeader()->setMinimumSectionSize(metrics_view_->fontMetrics().height());
  metrics_view_->viewport()->installEventFilter(this);
}

bool MetricsPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == metrics_view_->viewport() && event->type() == QEvent::Resize) fitColumns();
  return QWidget::eventFilter(watched, event);
}

void MetricsPanel::fitColumns() {
  // The values are what the panel is for: they keep their whole width, and the names give way
  // (elided, down to a few characters) when the dock is narrower than both. A value too long for
  // any dock (the solver's notes) is elided instead, whole in its tooltip.
  const QAbstractItemView* view = metrics_view_;  // where the size hints are public
  const int room = metrics_view_->viewport()->width();
  const int name = view->sizeHintForColumn(MetricsModel::Name);
  const int least_name = std::min(name, metrics_view_->fontMetrics().averageCharWidth() * 8);
  int value = 0;
  for (int row = 0; row < metrics_->rowCount(); ++row) {
    const int w = view->sizeHintForIndex(metrics_->index(row, MetricsModel::Value)).width();
    if (w <= room - least_name) value = std::max(value, w);
  }
  metrics_view_->setColumnWidth(MetricsModel::Name,
                                std::max(least_name, std::min(name, room - value)));
}

void MetricsPanel::setSnapshot(const SnapshotPtr& snapshot) {
  metrics_->setSnapshot(snapshot);
  stages_->setSnapshot(snapshot);
  fitColumns();
  stage_view_->resizeColumnsToContents();
}

}  // namespace slimpack::ui
