#pragma once
// Keeps every result view honest about what it shows. The Gantt, metrics, memory chart and the
// workload statistics follow the controller's ResultState; the sweep and the comparison compare
// the inputs they were computed for with the current inputs. A view that does not show the
// current settings is greyed under a banner that says why and what it shows instead.
#include <QObject>
#include <vector>

#include "window/explorer_controller.h"

namespace slimpack::ui {

class CompareView;
class StateFrame;
class SweepPanel;

class ViewStates : public QObject {
  Q_OBJECT
 public:
  ViewStates(ExplorerController& controller, std::vector<StateFrame*> result_frames,
             SweepPanel* sweep, CompareView* compare, QObject* parent = nullptr);

  // The comparison on screen was computed for these inputs (set when its result arrives).
  void setCompareBasis(const InputState& basis) { compare_basis_ = basis; }
  // The banner text of the main result views ("" when they are current); without the "Greyed: the
  // previous settings' result" sentence for the status bar.
  QString resultBanner(bool with_previous = true) const;
  // The same for the narrow docks (metrics, memory, workload statistics).
  QString shortBanner() const;

 public slots:
  void refresh();

 private:
  ExplorerController& controller_;
  std::vector<StateFrame*> result_frames_;
  SweepPanel* sweep_;
  CompareView* compare_;
  InputState compare_basis_;
};

// One line with a hint for a failed solve ("... Try a larger t, more stages p, ...").
QString failureHint(const Error& error);

}  // namespace slimpack::ui
