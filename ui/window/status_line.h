#pragma once
// The window's status line: the result in words on the left (strategy, iteration time, bubble,
// throughput, or why there is no current result), and while any job runs its stage, progress and a
// Cancel button on the right. It was a part of MainWindow spread over three files; as its own
// object it owns those widgets and the rule for when the busy indicator shows.
#include <QObject>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;
QT_END_NAMESPACE

namespace slimpack::ui {

class ExplorerController;
class JobBoard;
class ViewStates;

class StatusLine : public QObject {
  Q_OBJECT
 public:
  // Adds its widgets to `bar` and follows the progress of every job on `jobs`.
  StatusLine(QStatusBar* bar, ExplorerController& controller, JobBoard& jobs,
             const ViewStates& states, QObject* parent = nullptr);

  QLabel* resultLabel() const { return result_; }
  // The result in words: the controller's snapshot, or the views' banner when the last solve failed
  // or was cancelled.
  void updateText();
  // Shows the stage, progress and Cancel while the controller or any job is busy; the Cancel
  // button's tooltip lists the running jobs.
  void updateBusy();

 signals:
  // After every updateBusy (the window enables Run > Cancel with it).
  void busyChanged(bool busy);
  // The Cancel button was clicked.
  void cancelRequested();

 private:
  ExplorerController& controller_;
  JobBoard& jobs_;
  const ViewStates& states_;
  QLabel* stage_;
  QProgressBar* progress_;
  QToolButton* cancel_;
  QLabel* result_;
};

}  // namespace slimpack::ui
