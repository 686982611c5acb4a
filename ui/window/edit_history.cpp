#include "window/edit_history.h"

#include <QUndoCommand>

namespace slimpack::ui {
namespace {

class InputEdit : public QUndoCommand {
 public:
  static constexpr int kMergeId = 0x51a4;

  InputEdit(ExplorerController& c, InputState before, InputState after, const QString& what,
            int drag)
      : QUndoCommand(what),
        controller_(c),
        before_(std::move(before)),
        after_(std::move(after)),
        drag_(drag) {}

  // The edit is already applied when it is pushed; later redos restore it.
  void redo() override {
    if (first_) {
      first_ = false;
      return;
    }
    controller_.restoreInputs(after_);
  }
  void undo() override { controller_.restoreInputs(before_); }
  int id() const override { return drag_ > 0 ? kMergeId : -1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* o = static_cast<const InputEdit*>(other);
    if (o->drag_ != drag_ || o->text() != text()) return false;
    after_ = o->after_;
    return true;
  }

 private:
  ExplorerController& controller_;
  InputState before_;
  InputState after_;
  int drag_;  // > 0: made during that drag; edits of one drag merge
  bool first_ = true;
};

}  // namespace

EditHistory::EditHistory(ExplorerController& controller, QObject* parent)
    : QObject(parent), controller_(controller) {
  stack_.setUndoLimit(200);
  connect(&controller_, &ExplorerController::inputsEdited, this, &EditHistory::record);
}

void EditHistory::record(const InputState& before, const QString& what) {
  stack_.push(new InputEdit(controller_, before, controller_.inputs(), what, merging_ ? drag_ : 0));
}

}  // namespace slimpack::ui
