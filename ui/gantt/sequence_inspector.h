#pragma once
// The sequence inspector (a dock beside the Gantt): where the highlighted sequence's slices went,
// per stage, in forward packs and in backward packs, with each pack's time span and the token
// ranges of the sequence's slices in it. With asymmetric packing the two passes group the same
// slices differently; the summary line says how many packs of each pass hold the sequence.
#include <QWidget>
#include <memory>

#include "render/gantt_model.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTreeWidget;
QT_END_NAMESPACE

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class SequenceInspector : public QWidget {
  Q_OBJECT
 public:
  explicit SequenceInspector(QWidget* parent = nullptr);
  // Shows sequence `seq` of `model` (-1 or a null model: the hint to pin one).
  void setSequence(std::shared_ptr<const GanttModel> model, int seq);
  // Follows `view`: its highlighted (hovered or pinned) sequence and its new results; activating
  // a pack's row zooms the view onto that pack.
  void follow(GanttView* view);
  int sequence() const { return seq_; }
  QTreeWidget* tree() const { return tree_; }
  QLabel* summary() const { return summary_; }

 signals:
  // A pack's row was activated (double click, Enter).
  void packActivated(double start, double end);

 private:
  QLabel* summary_;
  QTreeWidget* tree_;
  std::shared_ptr<const GanttModel> model_;
  int seq_ = -1;
};

}  // namespace slimpack::ui
