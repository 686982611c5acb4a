// TraceWorkspace's trace options, the request measured vs simulated and calibration run with,
// and its part of a session (core/app/session_file.h): kept apart from the tab's layout and views.
#include <QFileInfo>

#include "trace/sim_check_panel.h"
#include "trace/trace_run_alignment.h"
#include "trace/trace_units.h"
#include "trace/trace_workspace.h"

namespace slimpack::ui {

TraceRunRequest TraceWorkspace::traceRequest() const {
  return sim_check_->request();
}

void TraceWorkspace::setTraceOptions(const TraceSpec& options) {
  loader_->setOptions(options);
  sim_check_->setOptions(options);
  alignment_->showRankAlignment(QString::fromStdString(options.align_event));
}

TraceSpec TraceWorkspace::traceOptions() const {
  TraceSpec spec = loader_->options();
  const TraceRunRequest r = sim_check_->request();
  spec.rules = r.options.rules;
  spec.gpu_flows = r.options.gpu_flows;
  return spec;
}

TraceSessionPart TraceWorkspace::sessionPart() const {
  TraceSessionPart part;
  // Absolute: a session is opened again from anywhere.
  for (const QString& p : loader_->paths(Slot::A))
    part.files.push_back(QFileInfo(p).absoluteFilePath().toStdString());
  if (comparing())
    for (const QString& p : loader_->paths(Slot::B))
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
  loader_->setPendingCompare(b);
  openTraces(a, Slot::A);
}

}  // namespace slimpack::ui
