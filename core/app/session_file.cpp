#include "app/session_file.h"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>

#include "app/config_options.h"
#include "app/search_space_text.h"
#include "common/json_util.h"
#include "common/output_file.h"
#include "trace/trace_units.h"

namespace slimpack {
namespace {

using json_util::Json;

// Reads an optional field into `out`, keeping its default when absent. An integer that does not
// fit `out` is an error, not a wrapped value.
template <class T, class Getter>
Status read_opt(const Json& obj, const char* key, const std::string& path, T& out, Getter get) {
  auto v = get(obj, key, path);
  if (!v) return v.error();
  if (!*v) return {};
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!std::in_range<T>(**v))
      return Error::bad_input(path + "." + key + ": " + std::to_string(**v) + " is out of range");
  }
  out = static_cast<T>(**v);
  return {};
}

// The workload and config objects are written and read from the option table
// (core/app/config_options.h): one key per option, checked as the CLI checks it.
Json section_json(const ScenarioSpec& scenario, OptionSection section) {
  Json out = Json::object();
  for (const ConfigOption& o : options_in(section)) {
    const OptionValue v = o.get(scenario);
    if (const bool* flag = std::get_if<bool>(&v))
      out[std::string(o.key)] = *flag != o.session_negated;
    else
      std::visit([&](const auto& x) { out[std::string(o.key)] = x; }, v);
  }
  return out;
}

Expected<std::optional<OptionValue>> read_value(const Json& j, const ConfigOption& o,
                                                const std::string& path) {
  const std::string key(o.key);
  auto wrap = [](const auto& got) -> Expected<std::optional<OptionValue>> {
    if (!got) return got.error();
    if (!*got) return std::optional<OptionValue>{};
    return std::optional<OptionValue>{OptionValue{**got}};
  };
  switch (o.kind) {
    case OptionKind::Integer:
      return wrap(json_util::opt_int(j, key, path));
    case OptionKind::Number:
      return wrap(json_util::opt_number(j, key, path));
    case OptionKind::Flag: {
      auto got = json_util::opt_bool(j, key, path);
      if (!got) return got.error();
      if (!*got) return std::optional<OptionValue>{};
      return std::optional<OptionValue>{OptionValue{**got != o.session_negated}};
    }
    case OptionKind::Text:
    case OptionKind::Choice:
      return wrap(json_util::opt_string(j, key, path));
  }
  return std::optional<OptionValue>{};
}

// Absent keys keep their defaults (older sessions lack the newer options).
Status read_section(const Json& j, const std::string& path, OptionSection section,
                    ScenarioSpec& scenario) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  for (const ConfigOption& o : options_in(section)) {
    auto value = read_value(j, o, path);
    if (!value) return value.error();
    if (!*value) continue;
    if (Status s = set_option(o, scenario, **value, session_name(o)); !s) return s;
  }
  return {};
}

Status read_view(const Json& j, const std::string& path, ViewState& v) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  if (Status s = read_opt(j, "t0", path, v.t0, json_util::opt_number); !s) return s;
  if (Status s = read_opt(j, "t1", path, v.t1, json_util::opt_number); !s) return s;
  if (Status s = read_opt(j, "selected_sequence", path, v.selected_sequence, json_util::opt_int);
      !s)
    return s;
  if (Status s = read_opt(j, "tab", path, v.tab, json_util::opt_string); !s) return s;
  if (v.tab != "gantt" && v.tab != "compare" && v.tab != "search" && v.tab != "traces")
    return Error::bad_input(path +
                            ".tab: expected \"gantt\", \"compare\", \"search\" or "
                            "\"traces\", got \"" +
                            v.tab + "\"");
  auto it = j.find("saved_views");
  if (it == j.end()) return {};
  if (!it->is_array()) return Error::bad_input(path + ".saved_views: expected an array");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const std::string at = path + ".saved_views[" + std::to_string(i) + "]";
    SavedView sv;
    auto name = json_util::get_string((*it)[i], "name", at);
    if (!name) return name.error();
    auto t0 = json_util::get_number((*it)[i], "t0", at);
    if (!t0) return t0.error();
    auto t1 = json_util::get_number((*it)[i], "t1", at);
    if (!t1) return t1.error();
    sv.name = *name;
    sv.t0 = *t0;
    sv.t1 = *t1;
    if (Status s = read_opt((*it)[i], "tab", at, sv.tab, json_util::opt_string); !s) return s;
    if (sv.tab != "gantt" && sv.tab != "compare")
      return Error::bad_input(at + ".tab: expected \"gantt\" or \"compare\", got \"" + sv.tab +
                              "\"");
    if (Status s =
            read_opt((*it)[i], "selected_sequence", at, sv.selected_sequence, json_util::opt_int);
        !s)
      return s;
    v.saved_views.push_back(std::move(sv));
  }
  return {};
}

Expected<std::vector<std::string>> file_list(const Json& obj, const std::string& key,
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

// The "traces" object: the trace options by the table, then the Traces tab's files and rules.
Status read_traces(const Json& t, const std::string& path, ScenarioSpec& scenario,
                   TraceSessionPart& part) {
  if (!t.is_object()) return Error::bad_input(path + ": expected an object");
  if (Status s = read_section(t, path, OptionSection::Traces, scenario); !s) return s;
  auto files = file_list(t, "files", path);
  if (!files) return files.error();
  auto compare = file_list(t, "compare_files", path);
  if (!compare) return compare.error();
  auto measured = json_util::opt_bool(t, "measured_vs_simulated", path);
  if (!measured) return measured.error();
  part.files = std::move(*files);
  part.compare_files = std::move(*compare);
  part.measured_vs_simulated = measured->value_or(false);
  if (t.contains("rules_set")) {
    // Validated as a rules file is: a bad expression names its rule.
    part.rules_json = t.at("rules_set").dump();
    auto set = parse_unit_rules(part.rules_json, path + ".rules_set");
    if (!set) return set.error();
    scenario.traces.rules = set->name;
  } else {
    const auto& names = builtin_unit_rule_set_names();
    const std::string& rules = scenario.traces.rules;
    // A rules file is named by its path; a bare word must be a built-in set.
    if (rules.find_first_of("/.") == std::string::npos &&
        std::find(names.begin(), names.end(), rules) == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      return Error::bad_input(path + ".rules: unknown rule set '" + rules + "' (" + known +
                              ", or a rules file)");
    }
  }
  return {};
}

Json search_json(const SearchSessionPart& part) {
  Json j{{"gpus", part.space.gpus},
         {"min_gpus", part.space.min_gpus},
         {"gpus_per_node", part.space.gpus_per_node},
         {"batches", part.batches}};
  for (std::string_view key : kSearchListOptions)
    j[std::string(key)] = space_list_text(part.space, key);
  return j;
}

// The "search" object: absent keys keep the tab's defaults; limits as the tab's fields have them.
Status read_search(const Json& j, const std::string& path, SearchSessionPart& part) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  struct Bounded {
    const char* key;
    int& out;
    int lo, hi;
  };
  const Bounded ints[] = {{"gpus", part.space.gpus, 1, 1 << 16},
                          {"min_gpus", part.space.min_gpus, 1, 1 << 16},
                          {"gpus_per_node", part.space.gpus_per_node, 0, 1024},
                          {"batches", part.batches, 1, 1024}};
  for (const Bounded& b : ints) {
    if (Status s = read_opt(j, b.key, path, b.out, json_util::opt_int); !s) return s;
    if (b.out < b.lo || b.out > b.hi)
      return Error::bad_input(path + "." + b.key + ": " + std::to_string(b.out) + " is outside " +
                              std::to_string(b.lo) + ".." + std::to_string(b.hi));
  }
  for (std::string_view key : kSearchListOptions) {
    const std::string name(key);
    auto text = json_util::opt_string(j, name, path);
    if (!text) return text.error();
    if (!*text) continue;
    if (Status s = set_space_list(part.space, key, **text, path + "." + name); !s) return s;
  }
  return {};
}

}  // namespace

std::string session_to_json(const SessionFile& s) {
  ScenarioSpec scenario;
  scenario.workload = s.workload;
  scenario.config = s.config;
  scenario.traces = s.trace_options;
  Json views = Json::array();
  for (const auto& v : s.view.saved_views)
    views.push_back({{"name", v.name},
                     {"t0", v.t0},
                     {"t1", v.t1},
                     {"tab", v.tab},
                     {"selected_sequence", v.selected_sequence}});
  Json j{{"format", kSessionFormat},
         {"version", kSessionVersion},
         {"workload", section_json(scenario, OptionSection::Workload)},
         {"config", section_json(scenario, OptionSection::Config)},
         {"view",
          {{"t0", s.view.t0},
           {"t1", s.view.t1},
           {"selected_sequence", s.view.selected_sequence},
           {"tab", s.view.tab},
           {"saved_views", views}}}};
  if (!s.plan_file.empty()) j["plan_file"] = s.plan_file;
  // Any part that differs from the defaults is written, so that reading it back gives it again
  // (run B's files or the measured-vs-simulated switch without run A included).
  if (s.traces != TraceSessionPart{} || s.trace_options != TraceSpec{}) {
    Json t = section_json(scenario, OptionSection::Traces);
    t["files"] = s.traces.files;
    if (!s.traces.compare_files.empty()) t["compare_files"] = s.traces.compare_files;
    if (!s.traces.rules_json.empty()) {
      auto rules = json_util::parse(s.traces.rules_json);
      if (rules) t["rules_set"] = std::move(*rules);
    }
    t["measured_vs_simulated"] = s.traces.measured_vs_simulated;
    j["traces"] = std::move(t);
  }
  if (s.search != SearchSessionPart{}) j["search"] = search_json(s.search);
  return j.dump(2) + "\n";
}

Expected<SessionFile> session_from_json(const std::string& text, const std::string& source) {
  auto parsed = json_util::parse(text);
  if (!parsed) return parsed.error().with_context(source);
  const Json& j = *parsed;
  auto fail = [&](const Error& e) { return e.with_context(source); };
  auto format = json_util::get_string(j, "format", "$");
  if (!format) return fail(format.error());
  if (*format != kSessionFormat)
    return fail(
        Error::bad_input("$.format: expected \"slimpack-session\", found \"" + *format + "\""));
  auto version = json_util::get_int(j, "version", "$");
  if (!version) return fail(version.error());
  if (*version != kSessionVersion)
    return fail(Error::bad_input("$.version: unsupported version " + std::to_string(*version) +
                                 " (this build reads " + std::to_string(kSessionVersion) + ")"));
  SessionFile s;
  ScenarioSpec scenario;
  if (auto it = j.find("workload"); it != j.end())
    if (Status st = read_section(*it, "$.workload", OptionSection::Workload, scenario); !st)
      return fail(st.error());
  if (auto it = j.find("config"); it != j.end())
    if (Status st = read_section(*it, "$.config", OptionSection::Config, scenario); !st)
      return fail(st.error());
  if (auto it = j.find("traces"); it != j.end())
    if (Status st = read_traces(*it, "$.traces", scenario, s.traces); !st) return fail(st.error());
  s.workload = scenario.workload;
  s.config = scenario.config;
  s.trace_options = scenario.traces;
  if (auto it = j.find("view"); it != j.end())
    if (Status st = read_view(*it, "$.view", s.view); !st) return fail(st.error());
  if (auto it = j.find("search"); it != j.end())
    if (Status st = read_search(*it, "$.search", s.search); !st) return fail(st.error());
  if (Status st = read_opt(j, "plan_file", "$", s.plan_file, json_util::opt_string); !st)
    return fail(st.error());
  return s;
}

Status write_session_file(const std::string& path, const SessionFile& session) {
  return write_output_file(path, session_to_json(session));
}

Expected<SessionFile> read_session_file(const std::string& path) {
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  return session_from_json(*text, path);
}

}  // namespace slimpack
