#include "trace/trace_session.h"

#include <algorithm>

#include "common/json_util.h"
#include "trace/trace_units.h"

namespace slimpack::ui {
namespace {

using json_util::Json;

Expected<std::vector<std::string>> string_list(const Json& obj, const std::string& key,
                                               const std::string& path) {
  std::vector<std::string> out;
  if (!obj.contains(key)) return out;
  const Json& list = obj.at(key);
  if (!list.is_array()) return Error::bad_input(path + "." + key + ": expected a list of files");
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string() || list[i].get<std::string>().empty())
      return Error::bad_input(path + "." + key + "[" + std::to_string(i) +
                              "]: expected a file name");
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

}  // namespace

Expected<std::string> add_traces_to_session(const std::string& session_json,
                                            const TraceSessionPart& traces) {
  if (traces.files.empty()) return session_json;
  auto doc = json_util::parse(session_json);
  if (!doc) return doc.error();
  Json part = {{"files", traces.files},
               {"rules", traces.rules},
               {"measured_vs_simulated", traces.measured_vs_simulated}};
  if (!traces.compare_files.empty()) part["compare_files"] = traces.compare_files;
  if (!traces.rules_json.empty()) {
    auto rules = json_util::parse(traces.rules_json);
    if (!rules) return rules.error().with_context("rules");
    part["rules_set"] = std::move(*rules);
  }
  (*doc)["traces"] = std::move(part);
  return doc->dump(2) + "\n";
}

Expected<TraceSessionPart> traces_from_session(const std::string& session_json,
                                               const std::string& source) {
  auto doc = json_util::parse(session_json);
  if (!doc) return doc.error().with_context(source);
  TraceSessionPart out;
  if (!doc->is_object() || !doc->contains("traces")) return out;
  const Json& t = doc->at("traces");
  const std::string path = source + ": $.traces";
  if (!t.is_object()) return Error::bad_input(path + ": expected an object");
  auto files = string_list(t, "files", path);
  if (!files) return files.error();
  auto compare = string_list(t, "compare_files", path);
  if (!compare) return compare.error();
  auto rules = json_util::opt_string(t, "rules", path);
  if (!rules) return rules.error();
  auto measured = json_util::opt_bool(t, "measured_vs_simulated", path);
  if (!measured) return measured.error();
  out.files = std::move(*files);
  out.compare_files = std::move(*compare);
  if (t.contains("rules_set")) {
    // Validated as a rules file is: a bad expression names its rule.
    out.rules_json = t.at("rules_set").dump();
    auto set = parse_unit_rules(out.rules_json, path + ".rules_set");
    if (!set) return set.error();
    out.rules = set->name;
  } else if (*rules) {
    const auto& names = builtin_unit_rule_set_names();
    if (std::find(names.begin(), names.end(), **rules) == names.end())
      return Error::bad_input(path + ".rules: unknown rule set '" + **rules +
                              "' (slimpack, megatron or dualpipe)");
    out.rules = **rules;
  }
  out.measured_vs_simulated = measured->value_or(false);
  return out;
}

}  // namespace slimpack::ui
