#pragma once
// Keeps every result view of the window honest about what it shows, by the one staleness rule
// (panels/freshness.h). The Gantt, metrics, memory chart and the workload statistics show the
// controller's snapshot (its basis is current when the ResultState is); the sweep and the
// comparison compare the inputs they were computed for with the current inputs. A view that does
// not show the current settings is greyed under a banner that says why and what it shows instead.
// (The Search tab applies the same rule to its own request, ui/panels/search_panel.cpp.)
#include <QObject>
#include <vector>

#include "panels/freshness.h"
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
  // The rule's verdict for the snapshot's views (and their exports) and for the comparison.
  Freshness resultFreshness() const;
  Freshness compareFreshness() const;

 signals:
  // After each refresh: whoever exports what the views show checks their freshness again.
  void refreshed();

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
