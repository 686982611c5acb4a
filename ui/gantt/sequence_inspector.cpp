#include "gantt/sequence_inspector.h"

#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "gantt/gantt_view.h"
#include "models/format.h"
#include "plan/pack_name.h"
#include "render/sequence_slices.h"

namespace slimpack::ui {
namespace {
enum Column { kPack, kSlices, kStart, kEnd, kColumns };

QString sliceList(const SequencePackRow& row) {
  QStringList out;
  for (const auto& [begin, end] : row.slices) out << QStringLiteral("[%1:%2)").arg(begin).arg(end);
  return out.join(QStringLiteral(" "));
}
}  // namespace

SequenceInspector::SequenceInspector(QWidget* parent)
    : QWidget(parent), summary_(new QLabel), tree_(new QTreeWidget) {
  summary_->setObjectName("inspector.summary");
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::PlainText);
  tree_->setObjectName("inspector.tree");
  tree_->setColumnCount(kColumns);
  tree_->setHeaderLabels({tr("Stage / pack"), tr("Its token ranges"), tr("Start"), tr("End")});
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addWidget(tree_, 1);
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    const double t0 = item->data(kStart, Qt::UserRole).toDouble();
    const double t1 = item->data(kEnd, Qt::UserRole).toDouble();
    if (t1 > t0) emit packActivated(t0, t1);
  });
  setSequence(nullptr, -1);
}

void SequenceInspector::follow(GanttView* view) {
  connect(view, &GanttView::sequenceHighlighted, this,
          [this, view](int seq) { setSequence(view->model(), seq); });
  connect(view, &GanttView::modelChanged, this,
          [this, view] { setSequence(view->model(), view->highlightedSequence()); });
  connect(this, &SequenceInspector::packActivated, view, [view](double t0, double t1) {
    const double margin = (t1 - t0) * 2.0;
    view->setViewRange(t0 - margin, t1 + margin);
  });
}

void SequenceInspector::setSequence(std::shared_ptr<const GanttModel> model, int seq) {
  model_ = std::move(model);
  seq_ = model_ && seq >= 0 && seq < model_->sequence_count() ? seq : -1;
  tree_->clear();
  if (seq_ < 0) {
    summary_->setText(
        tr("Hover a pack in the Gantt, or click it to pin its sequence: its slices "
           "are listed here per stage, in forward and in backward packs."));
    return;
  }
  const std::vector<SequencePackRow> rows = sequence_pack_rows(*model_, seq_);
  const QString unit = QString::fromStdString(model_->time_unit());
  QTreeWidgetItem* stage_item = nullptr;
  QTreeWidgetItem* pass_item = nullptr;
  int stage = -1, replica = -1;
  BarKind pass = BarKind::DpSync;
  QSet<int> forward_packs, backward_packs;
  for (const SequencePackRow& row : rows) {
    if (!stage_item || row.stage != stage || row.replica != replica) {
      stage = row.stage, replica = row.replica, pass = BarKind::DpSync;
      stage_item = new QTreeWidgetItem(tree_);
      stage_item->setText(kPack, model_->replicas() > 1
                                     ? tr("Replica %1, stage %2").arg(replica).arg(stage)
                                     : tr("Stage %1").arg(stage));
      stage_item->setFirstColumnSpanned(true);
    }
    const bool forward = row.kind == BarKind::Forward;
    if (row.stage == 0) (forward ? forward_packs : backward_packs).insert(row.pack);
    if (row.kind != pass) {
      pass = row.kind;
      pass_item = new QTreeWidgetItem(stage_item);
      pass_item->setText(kPack, forward ? tr("Forward packs") : tr("Backward packs"));
      pass_item->setFirstColumnSpanned(true);
    }
    auto* item = new QTreeWidgetItem(pass_item);
    // Named as the Gantt labels the bar (pack_name: "F1" is index 0).
    item->setText(kPack, QString::fromStdString(
                             pack_name(forward ? Pass::Forward : Pass::Backward, row.pack)));
    item->setText(kSlices, sliceList(row));
    // Slices the slicer cut, not the pieces listed: a piece of consecutive slices is one range.
    item->setToolTip(
        kSlices, tr("%n slice(s) of this sequence in a pack of %1 tokens", nullptr, row.slice_count)
                     .arg(formatTokens(double(row.pack_tokens))));
    item->setText(kStart, formatTime(row.start, unit));
    item->setText(kEnd, formatTime(row.end, unit));
    item->setData(kStart, Qt::UserRole, row.start);
    item->setData(kEnd, Qt::UserRole, row.end);
  }
  tree_->expandAll();
  const Sequence& s = model_->sequence(seq_);
  summary_->setText(tr("%1 · %2 tokens · %3 slices · stage 0: in %4 forward packs and %5 "
                       "backward packs")
                        .arg(QString::fromStdString(s.id), formatTokens(double(s.length)))
                        .arg(sequence_slice_count(*model_, seq_))
                        .arg(forward_packs.size())
                        .arg(backward_packs.size()));
}

}  // namespace slimpack::ui
