#pragma once
// Undo/redo of configuration changes (Edit > Undo, Ctrl+Z): every user edit of the workload, the
// configuration or the opened plan becomes one step that restores the inputs as they were and
// re-solves. Edits made while a slider is dragged merge into one step, so one Ctrl+Z undoes a
// whole drag.
#include <QObject>
#include <QUndoStack>

#include "window/explorer_controller.h"

namespace slimpack::ui {

class EditHistory : public QObject {
  Q_OBJECT
 public:
  explicit EditHistory(ExplorerController& controller, QObject* parent = nullptr);

  QUndoStack* stack() { return &stack_; }
  // While on (a slider is held), consecutive edits of the same kind merge into one step.
  void setMerging(bool on) {
    if (on && !merging_) ++drag_;
    merging_ = on;
  }

 private:
  void record(const InputState& before, const QString& what);

  ExplorerController& controller_;
  QUndoStack stack_;
  bool merging_ = false;
  int drag_ = 0;
};

}  // namespace slimpack::ui
