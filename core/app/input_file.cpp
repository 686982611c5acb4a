#include "app/input_file.h"

#include <algorithm>
#include <cctype>

#include "common/json_util.h"
#include "cost/profile.h"
#include "plan/legality.h"
#include "plan/plan_json.h"

namespace slimpack {
namespace {

std::string lower_extension(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool has_format(const json_util::Json& j, const char* format) {
  if (!j.is_object()) return false;
  auto it = j.find("format");
  return it != j.end() && it->is_string() && it->get<std::string>() == format;
}

// A parsed plan that passes the structural and ordering rules (no memory model: no L4 here).
Expected<Plan> checked_plan(const json_util::Json& j, const std::string& path) {
  auto plan = plan_from_json(j);
  if (!plan) return plan.error().with_context(path);
  const LegalityReport report = check_legality(*plan);
  if (!report.legal()) return Error::bad_input(path + ": illegal plan: " + report.summary());
  return plan;
}

// A parsed schedule as an input: its plan, with the schedule's fixed costs.
Expected<LoadedInput> schedule_input(const json_util::Json& j, const std::string& path) {
  auto loaded = load_schedule_json(j, path);
  if (!loaded) return loaded.error();
  LoadedInput out;
  out.kind = InputKind::Plan;
  out.plan = loaded->plan;
  out.schedule = std::move(*loaded);
  return out;
}

}  // namespace

Expected<LoadedInput> open_plan_file(const std::string& path) {
  auto j = json_util::parse_file(path);
  if (!j) return j.error();
  if (is_schedule_json(*j)) return schedule_input(*j, path);
  auto plan = checked_plan(*j, path);
  if (!plan) return plan.error();
  LoadedInput out;
  out.kind = InputKind::Plan;
  out.plan = std::make_shared<const Plan>(std::move(*plan));
  return out;
}

Expected<Plan> load_plan_file(const std::string& path) {
  auto j = json_util::parse_file(path);
  if (!j) return j.error();
  return checked_plan(*j, path);
}

InputKind input_kind_by_name(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == "slimpack") return InputKind::Session;
  if (ext == "csv" || ext == "txt" || ext == "jsonl" || ext == "json") return InputKind::Lengths;
  return InputKind::Unknown;
}

Expected<LoadedInput> load_input_file(const std::string& path, const std::string& column) {
  LoadedInput out;
  const InputKind kind = input_kind_by_name(path);
  if (kind == InputKind::Unknown)
    return Error::bad_input(path +
                            ": unknown file type (expected .csv, .txt, .json, .jsonl or "
                            ".slimpack)");
  if (kind == InputKind::Session)
    return Error::bad_input(path + ": a session is opened with File > Open Session");
  if (lower_extension(path) == "json") {
    auto j = json_util::parse_file(path);
    if (!j) return j.error();
    if (has_format(*j, kCostProfileFormat)) {
      auto profile = read_cost_profile(path);
      if (!profile) return profile.error();
      auto fitted = fit_profile(std::move(*profile));
      if (!fitted) return fitted.error().with_context(path);
      out.kind = InputKind::CostProfile;
      return out;
    }
    if (j->is_object() && j->contains("traceEvents"))
      return Error::bad_input(path +
                              ": a Chrome/Kineto trace, not a length file, plan or cost profile "
                              "(`slimpack trace info` summarizes it; per-pack timings fitted with "
                              "`slimpack fit-costs` make a cost profile the explorer can load)");
    if (j->is_object() && j->contains("model_type") && !j->contains("format"))
      return Error::bad_input(path +
                              ": a Hugging Face config.json, not a length file, plan or schedule: "
                              "choose it as the model (Model: From a config.json..., or the "
                              "CLI's --hf-config)");
    if (is_schedule_json(*j)) return schedule_input(*j, path);
    if (j->is_object() && j->contains("format") && !has_format(*j, kPlanFormat)) {
      // A file that names its format but not one the explorer opens: say so, instead of the
      // length reader's complaint about missing "lengths".
      const auto& f = (*j)["format"];
      const std::string name = f.is_string() ? f.get<std::string>() : f.dump();
      return Error::bad_input(
          path + ": $.format: \"" + name + "\" is not a format the explorer opens (a plan has \"" +
          kPlanFormat + "\", a schedule \"" + kScheduleFormat + "\", a fitted cost profile \"" +
          kCostProfileFormat + "\"; a length file has no \"format\")");
    }
    if (j->is_object() && !j->contains("format") &&
        (j->contains("forward_packs") || j->contains("backward_packs") || j->contains("replicas")))
      return Error::bad_input(path + ": looks like a plan but has no \"format\": \"" + kPlanFormat +
                              "\" (docs/file-formats-plan.md)");
    if (has_format(*j, kPlanFormat)) {
      auto plan = checked_plan(*j, path);
      if (!plan) return plan.error();
      out.kind = InputKind::Plan;
      out.plan = std::make_shared<const Plan>(std::move(*plan));
      return out;
    }
  }
  auto pool = read_length_file(path, LengthFileOptions{column});
  if (!pool) return pool.error();
  if (pool->lengths.empty()) return Error::bad_input(path + ": the file holds no lengths");
  out.kind = InputKind::Lengths;
  out.pool = std::make_shared<const LengthPool>(std::move(*pool));
  return out;
}

}  // namespace slimpack
