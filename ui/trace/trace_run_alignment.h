#pragma once
// TraceRunAlignment: where the Traces tab's clocks start. Between runs: the alignment box puts
// run B on run A's time axis at their first events, at a profiler step both have or at any named
// event ("Align at event…", the diff table's "Align Both Runs at This Event"). Between ranks: the
// "Align ranks at event" field is the CLI's --trace-align (each file's first event of that name
// is its time zero), run A loading again with it. Against the plan: measured vs simulated puts
// run A's time zero at its first mapped unit (alignToUnits). An alignment gives a run's timeline
// another origin (the same events) and shows the views on one axis through the timeline stack.
#include <QObject>
#include <QString>
#include <functional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineEdit;
QT_END_NAMESPACE

namespace slimpack::ui {

class SimCheckPanel;
class TimelineStack;
class TraceDiffPanel;
class TraceLoader;
class TraceView;

class TraceRunAlignment : public QObject {
  Q_OBJECT

 public:
  // How the two runs share the time axis.
  enum class Align { FirstEvent, NamedEvent };

  // What it aligns and where it looks. `sim_shown`: whether measured vs simulated is shown.
  struct Parts {
    TraceLoader* loader;
    TimelineStack* stack;
    TraceView* view_a;
    TraceView* view_b;
    SimCheckPanel* sim_check;
    TraceDiffPanel* diff;
    std::function<bool()> sim_shown;
  };
  explicit TraceRunAlignment(Parts parts, QObject* parent = nullptr);

  QComboBox* alignBox() const { return align_; }
  QLineEdit* rankAlignField() const { return rank_align_; }

  // Shows the alignment box while two runs are compared.
  void setShown(bool on);
  // New runs: the box lists the profiler steps both have, and B is aligned at first events.
  void restart();

  // Aligns B to A at their first events, or at the first event named `name` in each run
  // ("ProfilerStep#3"); false (alignment unchanged) when a run has no such event.
  bool setAlignment(Align align, const QString& name = {});
  // The same for any event name; says so (statusMessage) when a run lacks the event.
  bool alignAtEvent(const QString& name);
  // The ranks' clocks aligned at each file's first event of this name (empty: as recorded):
  // run A is loaded again with it.
  void alignRanksAt(const QString& event);
  // Shows the rank alignment of options set from outside (a session, the command line).
  void showRankAlignment(const QString& event);
  // Measured time zero at the first mapped unit (SimCheckPanel::checked), on one axis with the
  // simulated Gantt when the trace can be a run of the plan, else each view on its own extent.
  void alignToUnits(double origin_us);

 signals:
  void aligned();  // the runs have new origins: what is marked in them is found again
  void statusMessage(const QString& message);

 private:
  void setUpControls();
  void onActivated(int index);
  void fillAlignMenu();

  Parts parts_;
  QLineEdit* rank_align_;  // --trace-align for run A
  QComboBox* align_;
};

}  // namespace slimpack::ui
