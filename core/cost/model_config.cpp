#include "cost/model_config.h"

#include <array>
#include <cstdint>

namespace slimpack {
namespace {

struct ModelPreset {
  const char* name;
  int layers, hidden, ffn, heads, kv_heads, vocab;
};

// Published architecture sizes (Hugging Face config.json of each model).
constexpr std::array<ModelPreset, 5> kModelPresets{{
    {"llama-2-7b", 32, 4096, 11008, 32, 32, 32000},
    {"llama-3-8b", 32, 4096, 14336, 32, 8, 128256},
    {"llama-3-70b", 80, 8192, 28672, 64, 8, 128256},
    {"qwen2.5-32b", 64, 5120, 27648, 40, 8, 152064},
    {"qwen2.5-72b", 80, 8192, 29568, 64, 8, 152064},
}};

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

Status positive(double v, const char* field) {
  if (!(v > 0.0)) return Error::bad_field(field, "must be positive");
  return {};
}

Status non_negative(double v, const char* field) {
  if (!(v >= 0.0)) return Error::bad_field(field, "must not be negative");
  return {};
}

Status fraction(double v, const char* field) {
  if (!(v > 0.0 && v <= 1.0)) return Error::bad_field(field, "must lie in (0, 1]");
  return {};
}

}  // namespace

std::string attention_bias_name(AttentionBias bias) {
  switch (bias) {
    case AttentionBias::Qkv:
      return "qkv";
    case AttentionBias::QkvO:
      return "qkvo";
    case AttentionBias::None:
      break;
  }
  return "none";
}

Expected<AttentionBias> parse_attention_bias(const std::string& name) {
  for (auto bias : {AttentionBias::None, AttentionBias::Qkv, AttentionBias::QkvO})
    if (name == attention_bias_name(bias)) return bias;
  return Error::bad_input("\"" + name + "\" is not \"none\", \"qkv\" or \"qkvo\"");
}

double ModelConfig::weights_per_layer() const {
  const double h = hidden, g = kv_heads, dh = head_dim(), f = ffn, q = attention_width();
  // Q and K/V projections, attention output, SwiGLU gate/up/down.
  return h * (q + 2.0 * g * dh) + q * h + 3.0 * h * f;
}

double ModelConfig::biases_per_layer() const {
  const double qkv = attention_width() + 2.0 * kv_heads * head_dim();
  switch (attention_bias) {
    case AttentionBias::Qkv:
      return qkv;
    case AttentionBias::QkvO:
      return qkv + hidden;
    case AttentionBias::None:
      break;
  }
  return 0.0;
}

double ModelConfig::params_per_layer() const {
  return weights_per_layer() + biases_per_layer();
}

double ModelConfig::total_params() const {
  const double table = static_cast<double>(hidden) * vocab;
  return layers * params_per_layer() + (tied_embeddings ? 1.0 : 2.0) * table;
}

std::vector<std::string> model_preset_names() {
  std::vector<std::string> names;
  for (const auto& p : kModelPresets) names.emplace_back(p.name);
  return names;
}

std::vector<std::string> gpu_preset_names() {
  return {"a100-80g", "h100-sxm", "h200"};
}

Expected<ModelConfig> model_preset(const std::string& name) {
  for (const auto& p : kModelPresets) {
    if (name != p.name) continue;
    ModelConfig m;
    m.name = p.name;
    m.layers = p.layers;
    m.hidden = p.hidden;
    m.ffn = p.ffn;
    m.heads = p.heads;
    m.kv_heads = p.kv_heads;
    m.vocab = p.vocab;
    m.source = "preset";
    return m;
  }
  return Error::bad_input("unknown model preset '" + name +
                          "' (known: " + join(model_preset_names()) + ")");
}

Expected<GpuSpec> gpu_preset(const std::string& name) {
  GpuSpec g;  // the defaults are the H100 SXM figures
  g.name = name;
  if (name == "h100-sxm") return g;
  if (name == "h200") {
    g.memory_bytes = 141e9;
    return g;
  }
  if (name == "a100-80g") {
    // FlashAttention-2 reaches a somewhat smaller fraction of peak on Ampere than GEMMs do.
    g.peak_flops = 312e12;
    g.attn_fwd_efficiency = 0.45;
    g.attn_bwd_efficiency = 0.35;
    g.p2p_bandwidth = 25e9;
    g.dp_bandwidth = 25e9;
    return g;
  }
  return Error::bad_input("unknown GPU preset '" + name + "' (known: " + join(gpu_preset_names()) +
                          ")");
}

Status validate(const ModelConfig& m, const ParallelConfig& par) {
  // Upper bounds far above any real model or cluster: a hostile or mistyped file (10^9 layers or
  // stages) gets a message naming the field instead of absurd sizes further down (per-stage
  // arrays, memory figures of 10^17 bytes). 127 virtual chunks is what the simulator can number.
  struct Size {
    int value;
    const char* field;
    int max;
  };
  const Size sizes[] = {{m.layers, "model.layers", ModelLimits::layers},
                        {m.hidden, "model.hidden", ModelLimits::hidden},
                        {m.ffn, "model.ffn", ModelLimits::ffn},
                        {m.heads, "model.heads", ModelLimits::heads},
                        {m.kv_heads, "model.kv_heads", ModelLimits::kv_heads},
                        {m.vocab, "model.vocab", ModelLimits::vocab},
                        {par.pp, "parallel.pp", 4096},
                        {par.dp, "parallel.dp", 1 << 16},
                        {par.tp, "parallel.tp", 4096},
                        {par.vchunks, "parallel.vchunks", 127},
                        {par.cp, "parallel.cp", 4096}};
  for (const auto& [v, field, max] : sizes) {
    if (auto s = positive(v, field); !s) return s;
    if (v > max)
      return Error::bad_field(
          field, std::to_string(v) + " is more than the maximum " + std::to_string(max));
  }
  if (m.explicit_head_dim < 0) return Error::bad_field("model.head_dim", "must be positive");
  if (m.explicit_head_dim > ModelLimits::head_dim)
    return Error::bad_field("model.head_dim", std::to_string(m.explicit_head_dim) +
                                                  " is more than the maximum " +
                                                  std::to_string(ModelLimits::head_dim));
  // Without an explicit head dimension it is h / a, which must then come out whole.
  if (m.explicit_head_dim == 0 && m.hidden % m.heads != 0)
    return Error::bad_field("model.hidden", "" + std::to_string(m.hidden) +
                                                " is not divisible by model.heads " +
                                                std::to_string(m.heads));
  if (m.heads % m.kv_heads != 0)
    return Error::bad_field("model.kv_heads", "" + std::to_string(m.kv_heads) +
                                                  " does not divide model.heads " +
                                                  std::to_string(m.heads));
  if (!par.stage_layers.empty()) {
    if (static_cast<int>(par.stage_layers.size()) != par.pp)
      return Error::bad_field("parallel.stage_layers",
                              "" + std::to_string(par.stage_layers.size()) + " entries for " +
                                  std::to_string(par.pp) + " stages");
    int sum = 0;
    for (std::size_t s = 0; s < par.stage_layers.size(); ++s) {
      if (par.stage_layers[s] < 1)
        return Error::bad_field("parallel.stage_layers",
                                "stage " + std::to_string(s) + " has " +
                                    std::to_string(par.stage_layers[s]) +
                                    " layers; every stage needs at least 1");
      sum += par.stage_layers[s];
    }
    if (sum != m.layers)
      return Error::bad_field("parallel.stage_layers", "the layers sum to " + std::to_string(sum) +
                                                           ", the model has " +
                                                           std::to_string(m.layers));
    if (par.vchunks > 1)
      return Error::bad_field("parallel.stage_layers",
                              "an uneven stage split cannot be combined with the interleaved "
                              "schedule (vchunks > 1)");
  } else if (const std::int64_t chunks = std::int64_t{par.pp} * par.vchunks;
             m.layers % chunks != 0) {
    // In 64 bits: pp and vchunks come from files and may each be near INT_MAX.
    return Error::bad_field(
        "model.layers",
        "" + std::to_string(m.layers) +
            " is not divisible by parallel.pp * parallel.vchunks = " + std::to_string(chunks));
  }
  if (m.heads % par.tp != 0)
    return Error::bad_field(
        "parallel.tp",
        "" + std::to_string(par.tp) + " does not divide model.heads " + std::to_string(m.heads));
  return {};
}

Status validate(const GpuSpec& g) {
  const std::pair<double, const char*> pos[] = {
      {g.peak_flops, "gpu.peak_flops"},
      {g.memory_bytes, "gpu.memory_bytes"},
      {g.p2p_bandwidth, "gpu.p2p_bandwidth"},
      {g.dp_bandwidth, "gpu.dp_bandwidth"},
      {g.nvlink_bandwidth, "gpu.nvlink_bandwidth"},
      {static_cast<double>(g.gpus_per_node), "gpu.gpus_per_node"}};
  for (const auto& [v, field] : pos)
    if (auto s = positive(v, field); !s) return s;
  const std::pair<double, const char*> fractions[] = {
      {g.linear_efficiency, "gpu.linear_efficiency"},
      {g.attn_fwd_efficiency, "gpu.attn_fwd_efficiency"},
      {g.attn_bwd_efficiency, "gpu.attn_bwd_efficiency"}};
  for (const auto& [v, field] : fractions)
    if (auto s = fraction(v, field); !s) return s;
  const std::pair<double, const char*> nonneg[] = {
      {g.runtime_reserve_bytes, "gpu.runtime_reserve_bytes"},
      {g.kernel_overhead_s, "gpu.kernel_overhead_s"},
      {g.p2p_latency_s, "gpu.p2p_latency_s"},
      {g.dp_latency_s, "gpu.dp_latency_s"},
      {g.nvlink_latency_s, "gpu.nvlink_latency_s"}};
  for (const auto& [v, field] : nonneg)
    if (auto s = non_negative(v, field); !s) return s;
  if (g.runtime_reserve_bytes >= g.memory_bytes)
    return Error::bad_field("gpu.runtime_reserve_bytes", "must be below gpu.memory_bytes");
  return {};
}

}  // namespace slimpack
