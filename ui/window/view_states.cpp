#include "window/view_states.h"

#include "app/config_options.h"
#include "models/format.h"
#include "panels/compare_view.h"
#include "panels/state_frame.h"
#include "panels/sweep_panel.h"

namespace slimpack::ui {

QString failureHint(const Error& error) {
  // Decided on the error's kind, field and binding limit (values), never on its words.
  const QString generic = QObject::tr("Change the settings, or undo the last change (Ctrl+Z).");
  switch (error.kind) {
    case ErrorKind::Cancelled:
      return {};
    case ErrorKind::Infeasible:
      if (error.detail && error.detail->limit == Limit::TokenCap)
        return QObject::tr("Try a higher token cap or a smaller slice size S.");
      return QObject::tr(
          "Try a larger t, more stages p, a smaller slice size S or a higher memory cap.");
    case ErrorKind::BadInput:
      if (const ConfigOption* schedule = find_option("schedule");
          schedule != nullptr && error.field == cli_name(*schedule))
        return QObject::tr("Interleaving is for the unsliced fixed and balanced strategies.");
      if (!error.field.empty())
        return QObject::tr(
                   "Change %1 (its field in the configuration panel), or undo the last "
                   "change (Ctrl+Z).")
            .arg(QString::fromStdString(error.field));
      return generic;
    case ErrorKind::Internal:
      return generic;
  }
  return generic;
}

ViewStates::ViewStates(ExplorerController& controller, std::vector<StateFrame*> result_frames,
                       SweepPanel* sweep, CompareView* compare, QObject* parent)
    : QObject(parent),
      controller_(controller),
      result_frames_(std::move(result_frames)),
      sweep_(sweep),
      compare_(compare) {}

QString ViewStates::resultBanner(bool with_previous) const {
  const SnapshotPtr& snap = controller_.snapshot();
  const QString previous = snap && with_previous
                               ? tr("Greyed: the result of the previous settings (%1).")
                                     .arg(describeConfig(snap->config))
                               : QString();
  switch (controller_.resultState()) {
    case ResultState::Current:
      return {};
    case ResultState::Computing:
      return tr("Computing the new settings… (Esc cancels)");
    case ResultState::Failed: {
      QString why = readableMessage(controller_.resultMessage(), 400);
      if (!why.isEmpty() && !why.endsWith('.')) why += '.';
      return tr("Not solved for the current settings: %1 %2 %3")
          .arg(why, failureHint(controller_.resultError()), previous)
          .trimmed();
    }
    case ResultState::Cancelled:
      return tr("Cancelled: the current settings were not solved. %1").arg(previous).trimmed();
  }
  return {};
}

QString ViewStates::shortBanner() const {
  const SnapshotPtr& snap = controller_.snapshot();
  const QString previous =
      snap ? tr("Greyed: previous settings (%1).").arg(describeConfig(snap->config)) : QString();
  switch (controller_.resultState()) {
    case ResultState::Current:
      return {};
    case ResultState::Computing:
      return tr("Computing…");
    case ResultState::Failed:
      return tr("Not solved for the current settings (see the Gantt). %1").arg(previous).trimmed();
    case ResultState::Cancelled:
      return tr("Cancelled. %1").arg(previous).trimmed();
  }
  return {};
}

Freshness ViewStates::resultFreshness() const {
  const ResultState rs = controller_.resultState();
  return freshnessOf(controller_.snapshot() != nullptr, rs == ResultState::Current,
                     rs == ResultState::Computing, rs == ResultState::Failed);
}

Freshness ViewStates::compareFreshness() const {
  return freshnessOf(!compare_->entries().empty(), compare_basis_ == controller_.inputs(),
                     controller_.compareJobs().busy());
}

void ViewStates::refresh() {
  // Every view by the one rule (panels/freshness.h); only the banners' words differ.
  const Freshness main = resultFreshness();
  // The first frame (the Gantt) has room for the whole reason; the docks beside it get the
  // short form, which still says that their numbers are the previous settings'.
  for (std::size_t i = 0; i < result_frames_.size(); ++i)
    result_frames_[i]->setState(main, i == 0 ? resultBanner() : shortBanner());

  // The sweep: computed for the current inputs except S (S is the sweep's own axis).
  const InputState now = controller_.inputs();
  const Freshness sweep =
      freshnessOf(sweep_->hasPoints(), !sweep_->isStaleFor(now.workload, now.config, now.plan_file),
                  controller_.sweepJobs().busy());
  sweep_->resultFrame()->setState(sweep, sweep == Freshness::Stale
                                             ? tr("Computed for other settings: press Run sweep to "
                                                  "update it.")
                                             : tr("Sweeping S…"));

  // The comparison: computed for exactly the current inputs.
  const Freshness compare = compareFreshness();
  compare_->resultFrame()->setState(
      compare, compare == Freshness::Stale
                   ? tr("Computed for previous settings (%1): press Compare to update it.")
                         .arg(describeConfig(compare_basis_.config))
                   : tr("Comparing strategies…"));
  emit refreshed();
}

}  // namespace slimpack::ui
