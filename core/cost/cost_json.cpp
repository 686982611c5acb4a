#include "cost/cost_json.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "common/json_util.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

template <class T>
struct Field {
  const char* key;
  T* target;
};

std::string known_list(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// Rejects keys outside `allowed` so that typos are reported instead of ignored.
Status check_keys(const Json& obj, const std::vector<std::string>& allowed,
                  const std::string& path) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool found = false;
    for (const auto& a : allowed) found = found || a == it.key();
    if (!found)
      return Error::bad_input(path + "." + it.key() +
                              ": unknown key (known: " + known_list(allowed) + ")");
  }
  return {};
}

Status expect_object(const Json& j, const std::string& path) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  return {};
}

Status read_ints(const Json& obj, const std::vector<Field<int>>& fields, const std::string& path) {
  for (const auto& f : fields) {
    auto v = json_util::opt_int(obj, f.key, path);
    if (!v) return v.error();
    if (!*v) continue;
    if (**v < std::numeric_limits<int>::min() || **v > std::numeric_limits<int>::max())
      return Error::bad_input(path + "." + f.key + ": out of range");
    *f.target = static_cast<int>(**v);
  }
  return {};
}

Status read_doubles(const Json& obj, const std::vector<Field<double>>& fields,
                    const std::string& path) {
  for (const auto& f : fields) {
    auto v = json_util::opt_number(obj, f.key, path);
    if (!v) return v.error();
    if (*v) *f.target = **v;
  }
  return {};
}

Status read_bool(const Json& obj, const char* key, bool& target, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_boolean()) return Error::bad_input(path + "." + key + ": expected true or false");
  target = it->get<bool>();
  return {};
}

template <class T>
std::vector<std::string> keys_of(const std::vector<Field<T>>& fields) {
  std::vector<std::string> keys;
  for (const auto& f : fields) keys.emplace_back(f.key);
  return keys;
}

std::vector<Field<int>> model_fields(ModelConfig& m) {
  return {{"layers", &m.layers}, {"hidden", &m.hidden},     {"ffn", &m.ffn},
          {"heads", &m.heads},   {"kv_heads", &m.kv_heads}, {"vocab", &m.vocab}};
}

std::vector<Field<double>> gpu_fields(GpuSpec& g) {
  return {{"peak_flops", &g.peak_flops},
          {"linear_efficiency", &g.linear_efficiency},
          {"attn_fwd_efficiency", &g.attn_fwd_efficiency},
          {"attn_bwd_efficiency", &g.attn_bwd_efficiency},
          {"memory_bytes", &g.memory_bytes},
          {"runtime_reserve_bytes", &g.runtime_reserve_bytes},
          {"kernel_overhead_s", &g.kernel_overhead_s},
          {"p2p_bandwidth", &g.p2p_bandwidth},
          {"p2p_latency_s", &g.p2p_latency_s},
          {"dp_bandwidth", &g.dp_bandwidth},
          {"dp_latency_s", &g.dp_latency_s},
          {"nvlink_bandwidth", &g.nvlink_bandwidth},
          {"nvlink_latency_s", &g.nvlink_latency_s}};
}

std::vector<Field<int>> parallel_fields(ParallelConfig& p) {
  return {{"pp", &p.pp}, {"dp", &p.dp}, {"tp", &p.tp}, {"vchunks", &p.vchunks}, {"cp", &p.cp}};
}

std::vector<Field<double>> pass_fields(PassCoeffs& c) {
  return {{"kappa", &c.kappa}, {"alpha", &c.alpha}, {"beta", &c.beta}};
}

// The model's fields beyond its sizes: "head_dim" (a number; h / a when it equals that),
// "tied_embeddings" (true or false), "attention_bias" ("none", "qkv", "qkvo").
Status read_model_extras(const Json& j, ModelConfig& m, const std::string& path) {
  auto head_dim = json_util::opt_int(j, "head_dim", path);
  if (!head_dim) return head_dim.error();
  if (*head_dim) {
    if (**head_dim < 1 || **head_dim > ModelLimits::head_dim)
      return Error::bad_input(path + ".head_dim: expected a head dimension from 1 to " +
                              std::to_string(ModelLimits::head_dim));
    m.explicit_head_dim = static_cast<int>(**head_dim);
  }
  if (auto s = read_bool(j, "tied_embeddings", m.tied_embeddings, path); !s) return s;
  auto bias = json_util::opt_string(j, "attention_bias", path);
  if (!bias) return bias.error();
  if (*bias) {
    auto parsed = parse_attention_bias(**bias);
    if (!parsed) return Error::bad_input(path + ".attention_bias: " + parsed.error().message);
    m.attention_bias = *parsed;
  }
  return {};
}

// An explicit head dimension equal to h / a is no different from none: kept as none, so a model
// read back from its own JSON (which always writes "head_dim") equals the preset it came from.
void normalize_head_dim(ModelConfig& m) {
  if (m.explicit_head_dim > 0 && m.heads > 0 && m.hidden % m.heads == 0 &&
      m.explicit_head_dim == m.hidden / m.heads)
    m.explicit_head_dim = 0;
}

// "model": "name" or {"preset": "name", <field overrides>, "name": display name, "source": where
// it came from}. A model whose sizes the file sets is the file's ("costs:FILE") unless the object
// says where it came from (a schedule's setup records its model's source).
Status apply_model(const Json& j, ModelConfig& m, const std::string& path,
                   const std::string& file) {
  if (j.is_string()) {
    auto p = model_preset(j.get<std::string>());
    if (!p) return p.error().with_context(path);
    m = *p;
    return {};
  }
  if (auto s = expect_object(j, path); !s) return s;
  auto keys = keys_of(model_fields(m));
  keys.insert(keys.begin(), {"preset", "name", "source"});
  keys.insert(keys.end(), {"head_dim", "tied_embeddings", "attention_bias"});
  if (auto s = check_keys(j, keys, path); !s) return s;
  auto preset = json_util::opt_string(j, "preset", path);
  if (!preset) return preset.error();
  if (*preset) {
    auto p = model_preset(**preset);
    if (!p) return p.error().with_context(path + ".preset");
    m = *p;
  }
  auto name = json_util::opt_string(j, "name", path);
  if (!name) return name.error();
  if (*name) m.name = **name;
  if (auto s = read_ints(j, model_fields(m), path); !s) return s;
  if (auto s = read_model_extras(j, m, path); !s) return s;
  normalize_head_dim(m);
  auto source = json_util::opt_string(j, "source", path);
  if (!source) return source.error();
  if (*source) {
    m.source = **source;
  } else if (!file.empty()) {
    bool sized = false;
    for (const std::string& key : keys)
      sized = sized || (key != "preset" && key != "name" && j.contains(key));
    if (sized) m.source = "costs:" + file;
  }
  return {};
}

Status apply_gpu(const Json& j, GpuSpec& g, const std::string& path) {
  if (j.is_string()) {
    auto p = gpu_preset(j.get<std::string>());
    if (!p) return p.error().with_context(path);
    g = *p;
    return {};
  }
  if (auto s = expect_object(j, path); !s) return s;
  auto keys = keys_of(gpu_fields(g));
  keys.insert(keys.begin(), {"preset", "name"});
  if (auto s = check_keys(j, keys, path); !s) return s;
  auto preset = json_util::opt_string(j, "preset", path);
  if (!preset) return preset.error();
  if (*preset) {
    auto p = gpu_preset(**preset);
    if (!p) return p.error().with_context(path + ".preset");
    g = *p;
  }
  auto name = json_util::opt_string(j, "name", path);
  if (!name) return name.error();
  if (*name) g.name = **name;
  return read_doubles(j, gpu_fields(g), path);
}

// "stage_layers": [L0, L1, ...] (an explicit split; validate() checks its count and sum).
Status read_stage_layers(const Json& j, ParallelConfig& p, const std::string& path) {
  auto it = j.find("stage_layers");
  if (it == j.end() || it->is_null()) return {};
  const std::string at = path + ".stage_layers";
  if (!it->is_array() || it->size() > 4096)
    return Error::bad_input(at + ": expected an array of at most 4096 layer counts");
  std::vector<int> layers;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& v = (*it)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 1 << 20)
      return Error::bad_input(at + "[" + std::to_string(i) + "]: expected a layer count >= 1");
    layers.push_back(static_cast<int>(v.get<std::int64_t>()));
  }
  p.stage_layers = std::move(layers);
  return {};
}

Status apply_parallel(const Json& j, ParallelConfig& p, const std::string& path) {
  if (auto s = expect_object(j, path); !s) return s;
  auto keys = keys_of(parallel_fields(p));
  keys.push_back("stage_layers");
  if (auto s = check_keys(j, keys, path); !s) return s;
  if (auto s = read_stage_layers(j, p, path); !s) return s;
  return read_ints(j, parallel_fields(p), path);
}

// "recompute": a name of parse_recompute(); "stage_split": "even" or "auto".
Status read_split_and_recompute(const Json& j, CostOptions& o, const std::string& path) {
  auto recompute = json_util::opt_string(j, "recompute", path);
  if (!recompute) return recompute.error();
  if (*recompute) {
    auto spec = parse_recompute(**recompute);
    if (!spec) return Error::bad_input(path + ".recompute: " + spec.error().message);
    o.recompute = *spec;
  }
  auto split = json_util::opt_string(j, "stage_split", path);
  if (!split) return split.error();
  if (*split) {
    if (**split == "even")
      o.stage_split = StageSplit::Even;
    else if (**split == "auto")
      o.stage_split = StageSplit::Auto;
    else
      return Error::bad_input(path + ".stage_split: \"" + **split +
                              "\" is not \"even\" or \"auto\"");
  }
  return {};
}

Status apply_options(const Json& j, CostOptions& o, const std::string& path) {
  if (auto s = expect_object(j, path); !s) return s;
  if (auto s = check_keys(j,
                          {"memory_cap_bytes", "token_cap", "include_head", "include_dp_sync",
                           "cp_overlap", "tp_comm_exposed", "short_query_tokens", "recompute",
                           "stage_split", "split_pairs_per_token"},
                          path);
      !s)
    return s;
  if (auto s = read_split_and_recompute(j, o, path); !s) return s;
  if (auto s = read_doubles(j,
                            {{"memory_cap_bytes", &o.memory_cap_bytes},
                             {"split_pairs_per_token", &o.split_pairs_per_token},
                             {"cp_overlap", &o.cp_overlap},
                             {"tp_comm_exposed", &o.tp_comm_exposed},
                             {"short_query_tokens", &o.short_query_tokens}},
                            path);
      !s)
    return s;
  auto cap = json_util::opt_int(j, "token_cap", path);
  if (!cap) return cap.error();
  if (*cap) o.token_cap = static_cast<Tokens>(**cap);
  if (auto s = read_bool(j, "include_head", o.include_head, path); !s) return s;
  return read_bool(j, "include_dp_sync", o.include_dp_sync, path);
}

Status apply_coeffs(const Json& j, CostCoeffs& c, const std::string& path) {
  if (auto s = expect_object(j, path); !s) return s;
  if (auto s = check_keys(j,
                          {"forward", "backward", "head_forward_per_token",
                           "head_backward_per_token", "provenance"},
                          path);
      !s)
    return s;
  for (auto [key, pass] : {std::pair{"forward", &c.forward}, std::pair{"backward", &c.backward}}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    const std::string sub = path + "." + key;
    if (auto s = expect_object(*it, sub); !s) return s;
    if (auto s = check_keys(*it, keys_of(pass_fields(*pass)), sub); !s) return s;
    if (auto s = read_doubles(*it, pass_fields(*pass), sub); !s) return s;
  }
  if (auto s = read_doubles(j,
                            {{"head_forward_per_token", &c.head_forward_per_token},
                             {"head_backward_per_token", &c.head_backward_per_token}},
                            path);
      !s)
    return s;
  auto prov = json_util::opt_string(j, "provenance", path);
  if (!prov) return prov.error();
  if (*prov) c.provenance = **prov;
  const double values[] = {c.forward.kappa,          c.forward.alpha,          c.forward.beta,
                           c.backward.kappa,         c.backward.alpha,         c.backward.beta,
                           c.head_forward_per_token, c.head_backward_per_token};
  for (double v : values)
    if (!(v >= 0.0)) return Error::bad_input(path + ": coefficients must not be negative");
  return {};
}

Status apply_all(const Json& j, CostSetup& s, const std::string& source) {
  if (auto st = expect_object(j, "$"); !st) return st;
  if (auto st = check_keys(
          j, {"format", "version", "description", "model", "gpu", "parallel", "options", "coeffs"},
          "$");
      !st)
    return st;
  if (auto it = j.find("model"); it != j.end())
    if (auto st = apply_model(*it, s.model, "$.model", source); !st) return st;
  if (auto it = j.find("gpu"); it != j.end())
    if (auto st = apply_gpu(*it, s.gpu, "$.gpu"); !st) return st;
  if (auto it = j.find("parallel"); it != j.end())
    if (auto st = apply_parallel(*it, s.par, "$.parallel"); !st) return st;
  if (auto it = j.find("options"); it != j.end())
    if (auto st = apply_options(*it, s.options, "$.options"); !st) return st;
  // An automatic split need not divide the layers (8 on 3 stages): the same check as the model's.
  if (auto st = validate_split(s.model, s.par, s.options); !st) return st;
  if (auto st = validate(s.gpu); !st) return st;
  if (auto it = j.find("coeffs"); it != j.end()) {
    CostCoeffs c = s.coeffs ? *s.coeffs : CostModel::coeffs_from_flops(s.model, s.gpu, s.par);
    c.provenance = source.empty() ? "override" : source;
    if (auto st = apply_coeffs(*it, c, "$.coeffs"); !st) return st;
    s.coeffs = c;
  }
  return {};
}

Json pass_json(const PassCoeffs& c) {
  return {{"kappa", c.kappa}, {"alpha", c.alpha}, {"beta", c.beta}};
}

}  // namespace

Status apply_cost_overrides(const nlohmann::json& j, CostSetup& setup, const std::string& source) {
  CostSetup next = setup;
  if (auto st = apply_all(j, next, source); !st)
    return source.empty() ? st.error() : st.error().with_context(source);
  setup = std::move(next);
  return {};
}

Status read_cost_overrides_file(const std::string& path, CostSetup& setup) {
  auto j = json_util::parse_file(path);
  if (!j) return j.error();
  return apply_cost_overrides(*j, setup, path);
}

nlohmann::json to_json(const CostSetup& s) {
  ModelConfig m = s.model;
  GpuSpec g = s.gpu;
  ParallelConfig p = s.par;
  Json model = {{"name", m.name}, {"source", m.source}};
  for (const auto& f : model_fields(m)) model[f.key] = *f.target;
  model["head_dim"] = m.head_dim();
  model["tied_embeddings"] = m.tied_embeddings;
  model["attention_bias"] = attention_bias_name(m.attention_bias);
  Json gpu = {{"name", g.name}};
  for (const auto& f : gpu_fields(g)) gpu[f.key] = *f.target;
  Json par = Json::object();
  for (const auto& f : parallel_fields(p)) par[f.key] = *f.target;
  if (!s.par.stage_layers.empty()) par["stage_layers"] = s.par.stage_layers;
  Json out = {{"model", model},
              {"gpu", gpu},
              {"parallel", par},
              {"options",
               {{"memory_cap_bytes", s.options.memory_cap_bytes},
                {"token_cap", s.options.token_cap},
                {"include_head", s.options.include_head},
                {"include_dp_sync", s.options.include_dp_sync},
                {"cp_overlap", s.options.cp_overlap},
                {"tp_comm_exposed", s.options.tp_comm_exposed},
                {"short_query_tokens", s.options.short_query_tokens},
                {"recompute", recompute_name(s.options.recompute)},
                {"stage_split", s.options.stage_split == StageSplit::Auto ? "auto" : "even"},
                {"split_pairs_per_token", s.options.split_pairs_per_token}}}};
  if (s.coeffs) {
    out["coeffs"] = {{"forward", pass_json(s.coeffs->forward)},
                     {"backward", pass_json(s.coeffs->backward)},
                     {"head_forward_per_token", s.coeffs->head_forward_per_token},
                     {"head_backward_per_token", s.coeffs->head_backward_per_token},
                     {"provenance", s.coeffs->provenance}};
  }
  return out;
}

Expected<CostModel> cost_model_from_setup(const CostSetup& setup) {
  auto cm = CostModel::create(setup.model, setup.gpu, setup.par, setup.options);
  if (!cm) return cm.error();
  if (setup.coeffs) cm->set_coeffs(*setup.coeffs);
  return cm;
}

}  // namespace slimpack
