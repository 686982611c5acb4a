// TraceWorkspace's trace options, the request measured vs simulated and calibration run with,
// and its part of a session (core/app/session_file.h): kept apart from the tab's layout and views.
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalBlocker>

#include "trace/sim_check_panel.h"
#include "trace/trace_units.h"
#include "trace/trace_workspace.h"

namespace slimpack::ui {

TraceRunRequest TraceWorkspace::traceRequest() const {
  return sim_check_->request();
}

void TraceWorkspace::setTraceOptions(const TraceSpec& options) {
  options_ = options;
  sim_check_->setOptions(options);
  const QSignalBlocker block(rank_align_);
  rank_align_->setText(QString::fromStdString(options.align_event));
}

void TraceWorkspace::alignRanksAt(const QString& event) {
  options_.align_event = event.trimmed().toStdString();
  if (!options_.align_event.empty()) options_.offsets_us.clear();
  {
    const QSignalBlocker block(rank_align_);
    rank_align_->setText(QString::fromStdString(options_.align_event));
  }
  if (!paths_a_.isEmpty()) openTraces(paths_a_, Slot::A);
}

TraceSpec TraceWorkspace::traceOptions() const {
  TraceSpec spec = options_;
  const TraceRunRequest r = sim_check_->request();
  spec.rules = r.options.rules;
  spec.gpu_flows = r.options.gpu_flows;
  return spec;
}

TraceSessionPart TraceWorkspace::sessionPart() const {
  TraceSessionPart part;
  // Absolute: a session is opened again from anywhere.
  for (const QString& p : paths_a_)
    part.files.push_back(QFileInfo(p).absoluteFilePath().toStdString());
  if (comparing())
    for (const QString& p : paths_b_)
      part.compare_files.push_back(QFileInfo(p).absoluteFilePath().toStdString());
  if (sim_check_->customRules()) part.rules_json = unit_rules_to_json(sim_check_->rules());
  part.measured_vs_simulated = simCheckVisible();
  return part;
}

void TraceWorkspace::restoreSessionPart(const TraceSpec& options, const TraceSessionPart& part) {
  setTraceOptions(options);
  if (!part.rules_json.empty())
    if (auto rules = parse_unit_rules(part.rules_json, "session")) sim_check_->setRules(*rules);
  setSimCheckVisible(part.measured_vs_simulated);
  if (part.files.empty()) return;
  QStringList a, b;
  for (const auto& f : part.files) a << QString::fromStdString(f);
  for (const auto& f : part.compare_files) b << QString::fromStdString(f);
  pending_compare_ = b;
  openTraces(a, Slot::A);
}

}  // namespace slimpack::ui
