#include "app/session_file.h"

#include <type_traits>
#include <utility>

#include "common/json_util.h"
#include "cost/recompute.h"
#include "cost/stage_split.h"

namespace slimpack {
namespace {

using json_util::Json;

Json workload_json(const WorkloadSpec& w) {
  return Json{{"file", w.file},
              {"column", w.column},
              {"preset", w.preset},
              {"seed", w.seed},
              {"batch_tokens", w.batch_tokens},
              {"batch_count", w.batch_count}};
}

Json config_json(const ConfigSpec& c) {
  return Json{{"model", c.model},
              {"gpu", c.gpu},
              {"pp", c.pp},
              {"dp", c.dp},
              {"tp", c.tp},
              {"strategy", c.strategy},
              {"slice_size", c.slice_size},
              {"packs", c.packs},
              {"pack_tokens", c.pack_tokens},
              {"schedule", schedule_name(c.schedule)},
              {"vchunks", c.vchunks},
              {"context", c.context},
              {"recompute", recompute_name(c.recompute)},
              {"cp", c.cp},
              {"stage_layers", stage_split_name(c.stage_split)},
              {"memory_cap_gb", c.memory_cap_gb},
              {"token_cap", c.token_cap},
              {"cost_profile_file", c.cost_profile_file},
              {"cost_overrides_file", c.cost_overrides_file},
              {"exact", c.exact},
              {"time_limit_s", c.time_limit_s},
              {"asymmetric", c.asymmetric},
              {"dp_aware", c.dp_aware},
              {"dp_merge", c.dp_merge}};
}

// Reads an optional field into `out`, keeping its default when absent. An integer that does not
// fit `out` is an error, not a wrapped value (pp 4294967298 must not become 2).
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

// Parallel degrees and virtual chunks beyond this are typos or hostile files: the solver would
// allocate per stage (the plan reader has the same cap on stages).
constexpr int kMaxParallel = 4096;

Status read_workload(const Json& j, const std::string& path, WorkloadSpec& w) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  if (Status s = read_opt(j, "file", path, w.file, json_util::opt_string); !s) return s;
  if (Status s = read_opt(j, "column", path, w.column, json_util::opt_string); !s) return s;
  if (Status s = read_opt(j, "preset", path, w.preset, json_util::opt_string); !s) return s;
  std::int64_t seed = static_cast<std::int64_t>(w.seed);
  if (Status s = read_opt(j, "seed", path, seed, json_util::opt_int); !s) return s;
  if (seed < 0) return Error::bad_input(path + ".seed: must not be negative");
  w.seed = static_cast<std::uint64_t>(seed);
  if (Status s = read_opt(j, "batch_tokens", path, w.batch_tokens, json_util::opt_int); !s)
    return s;
  if (w.batch_tokens < 0) return Error::bad_input(path + ".batch_tokens: must not be negative");
  if (Status s = read_opt(j, "batch_count", path, w.batch_count, json_util::opt_int); !s) return s;
  if (w.batch_count < 0) return Error::bad_input(path + ".batch_count: must not be negative");
  return {};
}

Status read_config(const Json& j, const std::string& path, ConfigSpec& c) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  if (Status s = read_opt(j, "model", path, c.model, json_util::opt_string); !s) return s;
  if (Status s = read_opt(j, "gpu", path, c.gpu, json_util::opt_string); !s) return s;
  if (Status s = read_opt(j, "strategy", path, c.strategy, json_util::opt_string); !s) return s;
  for (auto [key, field] : {std::pair{"pp", &c.pp}, {"dp", &c.dp}, {"tp", &c.tp}}) {
    if (Status s = read_opt(j, key, path, *field, json_util::opt_int); !s) return s;
    if (*field < 1) return Error::bad_input(path + "." + key + ": must be at least 1");
    if (*field > kMaxParallel)
      return Error::bad_input(path + "." + key + ": " + std::to_string(*field) +
                              " is more than the maximum " + std::to_string(kMaxParallel));
  }
  if (Status s = read_opt(j, "packs", path, c.packs, json_util::opt_int); !s) return s;
  if (Status s = read_opt(j, "slice_size", path, c.slice_size, json_util::opt_int); !s) return s;
  if (c.packs < 0 || c.slice_size < 0)
    return Error::bad_input(path + ": packs and slice_size must not be negative");
  std::string sched = schedule_name(c.schedule);
  if (Status s = read_opt(j, "schedule", path, sched, json_util::opt_string); !s) return s;
  if (!parse_schedule(sched, c.schedule))
    return Error::bad_input(path + ".schedule: unknown schedule '" + sched + "'");
  if (Status s = read_opt(j, "memory_cap_gb", path, c.memory_cap_gb, json_util::opt_number); !s)
    return s;
  if (Status s = read_opt(j, "vchunks", path, c.vchunks, json_util::opt_int); !s) return s;
  if (c.vchunks < 1 || c.vchunks > kMaxParallel)
    return Error::bad_input(path + ".vchunks: must be in [1, " + std::to_string(kMaxParallel) +
                            "]");
  if (Status s = read_opt(j, "cp", path, c.cp, json_util::opt_int); !s) return s;
  if (c.cp < 1 || c.cp > kMaxParallel)
    return Error::bad_input(path + ".cp: must be in [1, " + std::to_string(kMaxParallel) + "]");
  // Long-context fields as the CLI spells them (--recompute, --stage-layers); older sessions
  // have none and keep the defaults.
  std::string recompute = recompute_name(c.recompute);
  if (Status s = read_opt(j, "recompute", path, recompute, json_util::opt_string); !s) return s;
  auto parsed_recompute = parse_recompute(recompute);
  if (!parsed_recompute) return parsed_recompute.error().with_context(path + ".recompute");
  c.recompute = *parsed_recompute;
  std::string stage_layers = stage_split_name(c.stage_split);
  if (Status s = read_opt(j, "stage_layers", path, stage_layers, json_util::opt_string); !s)
    return s;
  auto parsed_split = parse_stage_split(stage_layers);
  if (!parsed_split) return parsed_split.error().with_context(path + ".stage_layers");
  c.stage_split = *parsed_split;
  for (auto [key, field] : {std::pair{"pack_tokens", &c.pack_tokens},
                            {"token_cap", &c.token_cap},
                            {"context", &c.context}}) {
    if (Status s = read_opt(j, key, path, *field, json_util::opt_int); !s) return s;
    if (*field < 0) return Error::bad_input(path + "." + key + ": must not be negative");
  }
  if (Status s = read_opt(j, "cost_profile_file", path, c.cost_profile_file, json_util::opt_string);
      !s)
    return s;
  if (Status s =
          read_opt(j, "cost_overrides_file", path, c.cost_overrides_file, json_util::opt_string);
      !s)
    return s;
  if (Status s = read_opt(j, "time_limit_s", path, c.time_limit_s, json_util::opt_number); !s)
    return s;
  if (c.memory_cap_gb < 0 || c.time_limit_s <= 0)
    return Error::bad_input(path +
                            ": memory_cap_gb must not be negative and time_limit_s must "
                            "be positive");
  for (auto [key, field] : {std::pair{"exact", &c.exact},
                            {"asymmetric", &c.asymmetric},
                            {"dp_aware", &c.dp_aware},
                            {"dp_merge", &c.dp_merge}})
    if (Status s = read_opt(j, key, path, *field, json_util::opt_bool); !s) return s;
  return {};
}

Status read_view(const Json& j, const std::string& path, ViewState& v) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  if (Status s = read_opt(j, "t0", path, v.t0, json_util::opt_number); !s) return s;
  if (Status s = read_opt(j, "t1", path, v.t1, json_util::opt_number); !s) return s;
  if (Status s = read_opt(j, "selected_sequence", path, v.selected_sequence, json_util::opt_int);
      !s)
    return s;
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

}  // namespace

std::string session_to_json(const SessionFile& s) {
  Json views = Json::array();
  for (const auto& v : s.view.saved_views)
    views.push_back({{"name", v.name},
                     {"t0", v.t0},
                     {"t1", v.t1},
                     {"tab", v.tab},
                     {"selected_sequence", v.selected_sequence}});
  Json j{{"format", kSessionFormat},
         {"version", kSessionVersion},
         {"workload", workload_json(s.workload)},
         {"config", config_json(s.config)},
         {"view",
          {{"t0", s.view.t0},
           {"t1", s.view.t1},
           {"selected_sequence", s.view.selected_sequence},
           {"saved_views", views}}}};
  if (!s.plan_file.empty()) j["plan_file"] = s.plan_file;
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
  if (auto it = j.find("workload"); it != j.end())
    if (Status st = read_workload(*it, "$.workload", s.workload); !st) return fail(st.error());
  if (auto it = j.find("config"); it != j.end())
    if (Status st = read_config(*it, "$.config", s.config); !st) return fail(st.error());
  if (auto it = j.find("view"); it != j.end())
    if (Status st = read_view(*it, "$.view", s.view); !st) return fail(st.error());
  if (Status st = read_opt(j, "plan_file", "$", s.plan_file, json_util::opt_string); !st)
    return fail(st.error());
  return s;
}

Status write_session_file(const std::string& path, const SessionFile& session) {
  return json_util::write_file_atomic(path, session_to_json(session));
}

Expected<SessionFile> read_session_file(const std::string& path) {
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  return session_from_json(*text, path);
}

}  // namespace slimpack
