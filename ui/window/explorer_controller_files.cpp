// The files the configuration names beside its options: the cost files and a Hugging Face
// config.json as the model. Each is read on the load lane first; the configuration names it only
// when it reads, and a bad file is one loadFailed naming the file and the reason.
#include "app/scenario.h"
#include "models/format.h"
#include "window/explorer_controller.h"

namespace slimpack::ui {

void ExplorerController::setCostFiles(const QString& profile, const QString& overrides) {
  ConfigSpec next = config_;
  next.cost_profile_file = profile.toStdString();
  next.cost_overrides_file = overrides.toStdString();
  if (next == config_) return;
  const QString named =
      profile != QString::fromStdString(config_.cost_profile_file) ? profile : overrides;
  load_jobs_.start(
      tr("Loading costs"),
      [next](const CancelToken&, ProgressSink& progress) -> Status {
        progress.report("reading cost files", 0.0);
        auto cost = make_cost_model(next);
        if (!cost) return cost.error();
        return Status::success();
      },
      [this, next, named](Status checked) {
        if (!checked) {
          emit loadFailed(named, readableMessage(checked.error().message));
          return;
        }
        // Only the cost files change: edits made while the files were read are kept.
        ConfigSpec applied = config_;
        applied.cost_profile_file = next.cost_profile_file;
        applied.cost_overrides_file = next.cost_overrides_file;
        setConfig(applied);
      });
}

void ExplorerController::setModelFile(const QString& path) {
  ConfigSpec next = config_;
  next.hf_config_file = path.toStdString();
  if (next == config_) return;
  load_jobs_.start(
      tr("Loading model"),
      [next](const CancelToken&, ProgressSink& progress) -> Status {
        progress.report("reading the config.json", 0.0);
        // What the cost model is built from, so a file that reads here is the model a solve uses.
        auto model = scenario_model(next);
        if (!model) return model.error();
        return Status::success();
      },
      [this, next, path](Status checked) {
        if (!checked) {
          emit loadFailed(path, readableMessage(checked.error().message));
          return;
        }
        ConfigSpec applied = config_;  // edits made while the file was read are kept
        applied.hf_config_file = next.hf_config_file;
        setConfig(applied);
      });
}

}  // namespace slimpack::ui
