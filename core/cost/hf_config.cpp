#include "cost/hf_config.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>

#include "common/json_util.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

// What a family's configuration class and modelling code do with the fields that differ between
// them (transformers 5.24, models/<family>/configuration_<family>.py and modeling_<family>.py).
enum class Sliding {
  Never,     // llama: no sliding window
  Always,    // mistral: every layer slides when sliding_window is set (4096 when absent)
  Optional,  // qwen2: only with use_sliding_window, on the layers layer_types names
};

struct Family {
  const char* model_type;
  int default_kv_heads;  // num_key_value_heads when absent; 0 = num_attention_heads
  AttentionBias fixed_bias;
  bool reads_attention_bias;  // llama: attention_bias biases q, k, v and o
  bool reads_mlp_bias;        // llama: mlp_bias
  Sliding sliding;
};

constexpr Family kFamilies[] = {
    {"llama", 0, AttentionBias::None, true, true, Sliding::Never},
    {"mistral", 8, AttentionBias::None, false, false, Sliding::Always},
    {"qwen2", 32, AttentionBias::Qkv, false, false, Sliding::Optional},
};

// transformers' defaults of the fields the sliding window depends on.
constexpr int kDefaultSlidingWindow = 4096;
constexpr int kQwen2DefaultMaxWindowLayers = 28;

// A value as an error shows it: short JSON text.
std::string shown(const Json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// Reads the fields of one config; every error is "PATH: FIELD: reason".
class ConfigReader {
 public:
  ConfigReader(const Json& j, std::string path) : j_(j), path_(std::move(path)) {}

  Error fail(const std::string& field, const std::string& reason) const {
    return Error::bad_input(path_ + ": " + field + ": " + reason);
  }

  // The field's value; null when the field is absent or JSON null.
  const Json* value(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  bool present(const char* key) const { return j_.contains(key); }

  // A required positive integer of at most `max`.
  Expected<int> size(const char* key, int max) const {
    if (!present(key)) return fail(key, "missing");
    auto v = optional_size(key, max);
    if (!v) return v.error();
    if (!*v) return fail(key, "expected a positive integer, got null");
    return **v;
  }

  // An optional positive integer of at most `max`: nullopt when absent or null.
  Expected<std::optional<int>> optional_size(const char* key, int max) const {
    const Json* v = value(key);
    if (v == nullptr) return std::optional<int>{};
    if (!v->is_number_integer()) return fail(key, "expected an integer, got " + shown(*v));
    const auto n = v->get<std::int64_t>();
    if (n < 1) return fail(key, "must be positive, got " + std::to_string(n));
    if (n > max)
      return fail(key, std::to_string(n) + " is more than the maximum " + std::to_string(max));
    return std::optional<int>{static_cast<int>(n)};
  }

  // A non-negative integer, `fallback` when absent or null.
  Expected<int> count(const char* key, int fallback) const {
    const Json* v = value(key);
    if (v == nullptr) return fallback;
    if (!v->is_number_integer() || v->get<std::int64_t>() < 0 ||
        v->get<std::int64_t>() > ModelLimits::layers)
      return fail(key, "expected a layer count, got " + shown(*v));
    return static_cast<int>(v->get<std::int64_t>());
  }

  Expected<bool> flag(const char* key, bool fallback) const {
    const Json* v = value(key);
    if (v == nullptr) return fallback;
    if (!v->is_boolean()) return fail(key, "expected true or false, got " + shown(*v));
    return v->get<bool>();
  }

  Expected<std::string> text(const char* key, std::string fallback) const {
    const Json* v = value(key);
    if (v == nullptr) return fallback;
    if (!v->is_string()) return fail(key, "expected a string, got " + shown(*v));
    return v->get<std::string>();
  }

 private:
  const Json& j_;
  std::string path_;
};

std::string families_text() {
  std::string out;
  for (const auto& f : kFamilies) out += (out.empty() ? "" : ", ") + std::string(f.model_type);
  return out;
}

Expected<const Family*> family_of(const ConfigReader& r) {
  if (!r.present("model_type")) return r.fail("model_type", "missing");
  auto type = r.text("model_type", "");
  if (!type) return type.error();
  for (const auto& f : kFamilies)
    if (*type == f.model_type) return &f;
  return r.fail("model_type",
                "\"" + *type + "\" is not a supported family (supported: " + families_text() + ")");
}

// The window some layer applies, as transformers builds the model; 0 = none.
Expected<int> sliding_window(const ConfigReader& r, const Family& family, int layers) {
  if (family.sliding == Sliding::Never) return 0;
  const char* key = "sliding_window";
  if (family.sliding == Sliding::Optional) {
    auto use = r.flag("use_sliding_window", false);
    if (!use) return use.error();
    if (!*use) return 0;  // transformers sets sliding_window to None
  }
  auto window = r.optional_size(key, std::numeric_limits<int>::max());
  if (!window) return window.error();
  if (r.present(key) && !*window) return 0;  // null: no window
  const int size = window->value_or(kDefaultSlidingWindow);
  if (family.sliding == Sliding::Always) return size;
  int sliding = 0;
  if (const Json* types = r.value("layer_types")) {
    if (!types->is_array()) return r.fail("layer_types", "expected a list of layer types");
    for (const Json& t : *types) {
      if (!t.is_string()) return r.fail("layer_types", "expected strings, got " + shown(t));
      sliding += t.get<std::string>() == "sliding_attention";
    }
  } else {
    auto full = r.count("max_window_layers", kQwen2DefaultMaxWindowLayers);
    if (!full) return full.error();
    sliding = std::max(0, layers - *full);
  }
  return sliding > 0 ? size : 0;
}

// What the cost model prices of the rest: the SwiGLU FFN with silu and no FFN bias.
Status check_unmodelled(const ConfigReader& r, const Family& family) {
  auto act = r.text("hidden_act", "silu");
  if (!act) return act.error();
  if (*act != "silu")
    return r.fail("hidden_act", "\"" + *act +
                                    "\" is not modelled: the cost model prices the SwiGLU FFN "
                                    "with \"silu\"");
  if (family.reads_mlp_bias) {
    auto mlp_bias = r.flag("mlp_bias", false);
    if (!mlp_bias) return mlp_bias.error();
    if (*mlp_bias)
      return r.fail("mlp_bias", "true is not modelled: the cost model counts no FFN biases");
  }
  return {};
}

Status read_sizes(const ConfigReader& r, const Family& family, ModelConfig& m) {
  struct Required {
    const char* key;
    int* target;
    int max;
  };
  const Required required[] = {{"num_hidden_layers", &m.layers, ModelLimits::layers},
                               {"hidden_size", &m.hidden, ModelLimits::hidden},
                               {"intermediate_size", &m.ffn, ModelLimits::ffn},
                               {"num_attention_heads", &m.heads, ModelLimits::heads},
                               {"vocab_size", &m.vocab, ModelLimits::vocab}};
  for (const auto& [key, target, max] : required) {
    auto v = r.size(key, max);
    if (!v) return v.error();
    *target = *v;
  }
  auto kv = r.optional_size("num_key_value_heads", ModelLimits::kv_heads);
  if (!kv) return kv.error();
  const bool absent = !r.present("num_key_value_heads");
  m.kv_heads =
      kv->value_or(absent && family.default_kv_heads > 0 ? family.default_kv_heads : m.heads);
  if (m.heads % m.kv_heads != 0)
    return r.fail("num_key_value_heads",
                  std::to_string(m.kv_heads) +
                      (absent ? " (transformers' default for " + std::string(family.model_type) +
                                    " when the field is absent)"
                              : std::string()) +
                      " does not divide num_attention_heads " + std::to_string(m.heads));
  auto head_dim = r.optional_size("head_dim", ModelLimits::head_dim);
  if (!head_dim) return head_dim.error();
  if (!*head_dim && m.hidden % m.heads != 0)
    return r.fail("hidden_size", std::to_string(m.hidden) + " is not divisible by " +
                                     "num_attention_heads " + std::to_string(m.heads) +
                                     " and no head_dim is given");
  // A head dimension of h / a is the default one: kept implicit, so that a config of a built-in
  // model is that model field for field.
  if (*head_dim && !(m.hidden % m.heads == 0 && **head_dim == m.hidden / m.heads))
    m.explicit_head_dim = **head_dim;
  return {};
}

}  // namespace

std::string hf_config_model_name(const std::string& path) {
  const std::filesystem::path p(path);
  std::string stem = p.stem().string();
  if (stem == "config") {
    const std::string folder = p.parent_path().filename().string();
    if (!folder.empty() && folder != "." && folder != "..") return folder;
  }
  return stem.empty() ? std::string("hf-config") : stem;
}

std::vector<std::string> hf_config_families() {
  std::vector<std::string> out;
  for (const auto& f : kFamilies) out.emplace_back(f.model_type);
  return out;
}

Expected<ModelConfig> hf_config_from_json(const nlohmann::json& config, const std::string& path) {
  if (!config.is_object()) return Error::bad_input(path + ": expected a JSON object");
  const ConfigReader r(config, path);
  auto family = family_of(r);
  if (!family) return family.error();
  const Family& f = **family;
  ModelConfig m;
  m.name = hf_config_model_name(path);
  m.source = "hf-config:" + path;
  if (Status s = read_sizes(r, f, m); !s) return s.error();
  auto tied = r.flag("tie_word_embeddings", false);
  if (!tied) return tied.error();
  m.tied_embeddings = *tied;
  m.attention_bias = f.fixed_bias;
  if (f.reads_attention_bias) {
    auto bias = r.flag("attention_bias", false);
    if (!bias) return bias.error();
    if (*bias) m.attention_bias = AttentionBias::QkvO;
  }
  if (Status s = check_unmodelled(r, f); !s) return s.error();
  auto window = sliding_window(r, f, m.layers);
  if (!window) return window.error();
  m.sliding_window = *window;
  return m;
}

Status check_sliding_window(const ModelConfig& model, const std::vector<Sequence>& sequences) {
  if (model.sliding_window <= 0) return {};
  const Sequence* longest = nullptr;
  for (const Sequence& seq : sequences)
    if (longest == nullptr || seq.length > longest->length) longest = &seq;
  if (longest == nullptr || longest->length <= model.sliding_window) return {};
  const std::string hf = "hf-config:";
  const std::string file =
      model.source.rfind(hf, 0) == 0 ? model.source.substr(hf.size()) : model.name;
  const std::string window = std::to_string(model.sliding_window);
  return Error::bad_input(file + ": sliding_window: " + window + " is shorter than sequence " +
                          longest->id + " (" + std::to_string(longest->length) +
                          " tokens): a window masks attention the cost model prices in full (not "
                          "modelled); plan sequences of at most " +
                          window + " tokens, or set sliding_window to null");
}

Expected<ModelConfig> load_hf_config(const std::string& path) {
  auto j = json_util::parse_file(path);
  if (!j) return j.error();
  return hf_config_from_json(*j, path);
}

}  // namespace slimpack
