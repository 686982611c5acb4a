#include "app/cost_file_rule.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include "app/config_options.h"
#include "common/json_util.h"
#include "cost/model_config.h"
#include "cost/recompute.h"
#include "cost/stage_split.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

// An option and a field of the file that sets the same thing.
struct Link {
  std::string_view flag;
  const char* section;  // "parallel" / "options" / "coeffs"
  const char* key;
};

constexpr Link kLinks[] = {
    {"pp", "parallel", "pp"},
    {"dp", "parallel", "dp"},
    {"tp", "parallel", "tp"},
    {"recompute", "options", "recompute"},
    {"cp", "parallel", "cp"},
    {"stage-layers", "parallel", "stage_layers"},
    {"stage-layers", "options", "stage_split"},
    {"vchunks", "parallel", "vchunks"},
    {"memory-cap", "options", "memory_cap_bytes"},
    {"token-cap", "options", "token_cap"},
    // A fitted profile replaces the file's per-layer coefficients (the head's stay).
    {"cost-profile", "coeffs", "forward"},
    {"cost-profile", "coeffs", "backward"},
};

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

const Json* field_of(const Json& file, const char* section, const char* key) {
  if (!file.is_object()) return nullptr;
  auto s = file.find(section);
  if (s == file.end() || !s->is_object()) return nullptr;
  auto f = s->find(key);
  if (f == s->end() || f->is_null()) return nullptr;
  return &*f;
}

// The field's value as the CLI would spell it ("3,3,2", "full", "1"); empty for an object.
std::string value_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const Json& x : v) out += (out.empty() ? "" : ",") + value_text(x);
    return out;
  }
  if (v.is_object()) return {};
  return v.dump();
}

// Whether the file's field holds what the option's value says; a field of the wrong type differs
// (the option replaces it either way).
bool same_value(const Link& link, const Json& v, const ConfigSpec& c) {
  const std::string_view flag = link.flag;
  const auto int_is = [&](std::int64_t want) {
    return v.is_number_integer() && v.get<std::int64_t>() == want;
  };
  if (flag == "pp") return int_is(c.pp);
  if (flag == "dp") return int_is(c.dp);
  if (flag == "tp") return int_is(c.tp);
  if (flag == "cp") return int_is(c.cp);
  if (flag == "vchunks") return int_is(c.vchunks);
  if (flag == "token-cap") return int_is(c.token_cap);
  if (flag == "memory-cap") {
    const double want = c.memory_cap_gb * 1e9;
    return v.is_number() &&
           std::abs(v.get<double>() - want) <= 1e-9 * std::max(1.0, std::abs(want));
  }
  if (flag == "recompute") {
    if (!v.is_string()) return false;
    auto spec = parse_recompute(v.get<std::string>());
    return spec && recompute_name(*spec) == recompute_name(c.recompute);
  }
  if (flag == "stage-layers") {
    if (std::string_view(link.key) == "stage_layers")
      return v.is_array() && value_text(v) == stage_split_name(c.stage_split);
    return v.is_string() && c.stage_split.explicit_layers.empty() &&
           v.get<std::string>() == (c.stage_split.is_auto ? "auto" : "even");
  }
  return false;  // cost-profile: a profile always replaces the file's fitted passes
}

// The model (GPU) a file's section names: a preset name, the object's "preset", else its "name".
std::string named_in(const Json& section) {
  if (section.is_string()) return section.get<std::string>();
  if (!section.is_object()) return {};
  for (const char* key : {"preset", "name"})
    if (auto it = section.find(key); it != section.end() && it->is_string())
      return it->get<std::string>();
  return {};
}

std::string option_value_text(std::string_view flag, const ConfigSpec& config) {
  const ConfigOption* option = find_option(flag);
  if (option == nullptr || option->get == nullptr) return {};
  ScenarioSpec s;
  s.config = config;
  return option_text(*option, option->get(s));
}

Expected<std::vector<CostFileOverride>> examine(const ConfigSpec& config, const Json& file,
                                                const std::string& path,
                                                const std::vector<std::string>& varied) {
  const auto given = [&](std::string_view flag) {
    return contains(config.given_options, flag) || contains(varied, flag);
  };
  // Contradictions first: a model or GPU the file describes is not the one the option names.
  for (const char* what : {"model", "gpu"}) {
    if (!given(what) || !file.is_object()) continue;
    auto section = file.find(what);
    if (section == file.end()) continue;
    const std::string named = named_in(*section);
    const std::string& mine = std::string_view(what) == "model" ? config.model : config.gpu;
    if (named.empty() || named == mine) continue;
    return Error::bad_input("--" + std::string(what) + " " + mine + " contradicts " + what + " = " +
                            named + " of " + path + ": the file describes its own " +
                            (std::string_view(what) == "model" ? "model" : "GPU") + "; drop --" +
                            what + " or the file's \"" + what + "\"");
  }
  // A stage list is one entry per stage: p from one side and the list from the other cannot
  // both hold when their counts differ.
  if (const Json* layers = field_of(file, "parallel", "stage_layers");
      layers != nullptr && layers->is_array() && given("pp") && !given("stage-layers") &&
      static_cast<int>(layers->size()) != config.pp)
    return Error::bad_input("--pp " + std::to_string(config.pp) +
                            " contradicts parallel.stage_layers = " + value_text(*layers) + " of " +
                            path + " (" + std::to_string(layers->size()) +
                            " stages): give --stage-layers too, or drop --pp");
  if (const Json* pp = field_of(file, "parallel", "pp");
      pp != nullptr && pp->is_number_integer() && given("stage-layers") && !given("pp") &&
      !config.stage_split.explicit_layers.empty() &&
      static_cast<std::int64_t>(config.stage_split.explicit_layers.size()) !=
          pp->get<std::int64_t>())
    return Error::bad_input("--stage-layers " + stage_split_name(config.stage_split) +
                            " contradicts parallel.pp = " + pp->dump() + " of " + path + " (" +
                            std::to_string(config.stage_split.explicit_layers.size()) +
                            " stages listed): give --pp too, or drop --stage-layers");
  std::vector<CostFileOverride> out;
  // A config.json is the whole model: the file's "model" cannot refine it. One that names its
  // model contradicts it; one that only sets sizes is replaced, field by field said.
  if (given("hf-config") && file.is_object()) {
    if (auto section = file.find("model"); section != file.end() && !section->is_null()) {
      const std::string named = named_in(*section);
      if (!named.empty() || !section->is_object())
        return Error::bad_input("--hf-config " + config.hf_config_file + " contradicts model = " +
                                (named.empty() ? value_text(*section) : named) + " of " + path +
                                ": the file describes its own model; drop --hf-config or the "
                                "file's \"model\"");
      for (auto it = section->begin(); it != section->end(); ++it)
        out.push_back({"hf-config", config.hf_config_file, "model." + it.key(),
                       value_text(it.value()), path});
    }
  }
  for (const Link& link : kLinks) {
    if (!given(link.flag)) continue;
    const Json* v = field_of(file, link.section, link.key);
    if (v == nullptr) continue;
    if (!contains(varied, link.flag) && same_value(link, *v, config)) continue;
    out.push_back({std::string(link.flag), option_value_text(link.flag, config),
                   std::string(link.section) + "." + link.key, value_text(*v), path});
  }
  return out;
}

}  // namespace

std::string override_line(const CostFileOverride& o) {
  return "--" + o.flag + (o.value.empty() ? "" : " " + o.value) + " overrides " + o.field +
         (o.file_value.empty() ? "" : " = " + o.file_value) + " of " + o.file;
}

const std::vector<std::string>& cost_file_options() {
  static const std::vector<std::string> kFlags = [] {
    std::vector<std::string> flags = {"model", "hf-config", "gpu"};
    for (const Link& link : kLinks)
      if (!contains(flags, link.flag)) flags.emplace_back(link.flag);
    return flags;
  }();
  return kFlags;
}

Expected<std::vector<CostFileOverride>> cost_file_overrides(
    const ConfigSpec& config, const std::vector<std::string>& varied) {
  if (config.cost_overrides_file.empty()) return std::vector<CostFileOverride>{};
  auto file = json_util::parse_file(config.cost_overrides_file);
  if (!file) return file.error();
  return examine(config, *file, config.cost_overrides_file, varied);
}

Status apply_cost_file(const ConfigSpec& config, CostSetup& setup,
                       const std::vector<std::string>& fixed_by_plan) {
  if (config.cost_overrides_file.empty()) return {};
  const std::string& path = config.cost_overrides_file;
  auto file = json_util::parse_file(path);
  if (!file) return file.error();
  auto checked = examine(config, *file, path, {});
  if (!checked) return checked.error();
  Json& j = *file;
  const auto erase = [&](const std::string& section, const std::string& key) {
    if (!j.is_object()) return;
    auto s = j.find(section);
    if (s != j.end() && s->is_object()) s->erase(key);
  };
  for (const Link& link : kLinks)
    if (contains(config.given_options, link.flag) && std::string_view(link.section) != "coeffs")
      erase(link.section, link.key);
  if (contains(config.given_options, "hf-config") && j.is_object()) j.erase("model");
  for (const std::string& field : fixed_by_plan) {
    const auto dot = field.find('.');
    if (dot != std::string::npos) erase(field.substr(0, dot), field.substr(dot + 1));
  }
  return apply_cost_overrides(j, setup, path);
}

Expected<ConfigSpec> adopt_cost_file(const ConfigSpec& config) {
  if (config.cost_overrides_file.empty()) return config;
  auto file = json_util::parse_file(config.cost_overrides_file);
  if (!file) return file.error();
  ConfigSpec out = config;
  const auto give = [&](std::string_view flag) {
    if (!contains(out.given_options, flag)) out.given_options.emplace_back(flag);
  };
  const auto as_int = [](const Json* v) -> std::optional<std::int64_t> {
    if (v == nullptr || !v->is_number_integer()) return std::nullopt;
    return v->get<std::int64_t>();
  };
  for (auto [flag, key, target] : {std::tuple{"pp", "pp", &out.pp}, std::tuple{"dp", "dp", &out.dp},
                                   std::tuple{"tp", "tp", &out.tp}, std::tuple{"cp", "cp", &out.cp},
                                   std::tuple{"vchunks", "vchunks", &out.vchunks}})
    if (auto v = as_int(field_of(*file, "parallel", key))) {
      *target = static_cast<int>(*v);
      give(flag);
    }
  if (const Json* layers = field_of(*file, "parallel", "stage_layers");
      layers != nullptr && layers->is_array()) {
    auto split = parse_stage_split(value_text(*layers));
    if (split) {
      out.stage_split = *split;
      give("stage-layers");
    }
  } else if (const Json* split = field_of(*file, "options", "stage_split");
             split != nullptr && split->is_string()) {
    out.stage_split = StageSplitSpec{split->get<std::string>() == "auto", {}};
    give("stage-layers");
  }
  if (const Json* r = field_of(*file, "options", "recompute"); r != nullptr && r->is_string())
    if (auto spec = parse_recompute(r->get<std::string>())) {
      out.recompute = *spec;
      give("recompute");
    }
  if (const Json* cap = field_of(*file, "options", "memory_cap_bytes");
      cap != nullptr && cap->is_number()) {
    out.memory_cap_gb = cap->get<double>() / 1e9;
    give("memory-cap");
  }
  if (auto cap = as_int(field_of(*file, "options", "token_cap"))) {
    out.token_cap = *cap;
    give("token-cap");
  }
  // A model or GPU the file names by a preset is the panel's choice; a described one stays the
  // file's (the panel's choice is then not given).
  for (auto [what, target, names] : {std::tuple{"model", &out.model, model_preset_names()},
                                     std::tuple{"gpu", &out.gpu, gpu_preset_names()}}) {
    auto it = file->is_object() ? file->find(what) : file->end();
    if (!file->is_object() || it == file->end()) continue;
    const std::string named = named_in(*it);
    if (!named.empty() && contains(names, named)) {
      *target = named;
      if (std::string_view(what) == "model") out.hf_config_file.clear();
    } else {
      out.given_options.erase(std::remove(out.given_options.begin(), out.given_options.end(), what),
                              out.given_options.end());
    }
  }
  return out;
}

}  // namespace slimpack
