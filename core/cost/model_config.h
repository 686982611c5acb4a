#pragma once
// Model, GPU and parallelism configuration with the presets of docs/design.md section 3 / 9.
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack {

// The largest sizes a model may have: far above any real model, so that a hostile or mistyped
// file gets a message naming the field instead of absurd sizes further down.
struct ModelLimits {
  static constexpr int layers = 1 << 16;
  static constexpr int hidden = 1 << 20;
  static constexpr int ffn = 1 << 22;
  static constexpr int heads = 1 << 16;
  static constexpr int kv_heads = 1 << 16;
  static constexpr int vocab = 1 << 24;
  static constexpr int head_dim = 1 << 16;
};

// Which attention projections carry a bias: none (Llama, Mistral), q/k/v (Qwen2), q/k/v and the
// output projection (Llama with attention_bias).
enum class AttentionBias { None, Qkv, QkvO };

// "none", "qkv", "qkvo"; the parser refuses anything else, naming the three.
std::string attention_bias_name(AttentionBias bias);
Expected<AttentionBias> parse_attention_bias(const std::string& name);

// Llama-style decoder: SwiGLU FFN, grouped-query attention.
struct ModelConfig {
  std::string name;
  // Where the model came from, as the schedule's setup.model records it: "preset", "hf-config:PATH"
  // (a Hugging Face config.json, cost/hf_config.h) or "costs:PATH" (a --costs file's "model").
  std::string source = "preset";
  int layers = 32;    // L
  int hidden = 4096;  // h
  int ffn = 11008;    // f
  int heads = 32;     // a
  int kv_heads = 32;  // g
  int vocab = 32000;  // V
  // dh when a config gives one that is not h / a (128 with h = 2560, a = 32); 0 = h / a.
  int explicit_head_dim = 0;
  bool tied_embeddings = false;  // the LM head is the embedding table
  AttentionBias attention_bias = AttentionBias::None;
  // Tokens a sliding window keeps when some layer has one (a config.json's sliding_window); 0 =
  // none. The cost model prices full causal attention, which a window leaves unchanged in a
  // sequence no longer than it; a longer sequence is refused (cost/hf_config.h).
  int sliding_window = 0;

  int head_dim() const { return explicit_head_dim > 0 ? explicit_head_dim : hidden / heads; }  // dh
  // a dh: the width of Q and of the attention output (h unless the head dim is explicit).
  double attention_width() const { return static_cast<double>(heads) * head_dim(); }
  // The GEMM weights of a layer: W_L = h(a dh + 2 g dh) + a dh h + 3 h f (Q, K/V, output
  // projection, gate/up/down; norms are not counted). The linear FLOPs are 2 W_L per token.
  double weights_per_layer() const;
  // The biases of a layer: a dh + 2 g dh for q/k/v, + h for the output projection.
  double biases_per_layer() const;
  // P_L = W_L + biases: what a layer stores (weights, gradients, optimizer state).
  double params_per_layer() const;
  // All parameters: layers * P_L + the embedding (h V) + the LM head (h V unless tied).
  double total_params() const;
};

struct GpuSpec {
  std::string name;
  double peak_flops = 989e12;          // dense bf16 FLOP/s
  double linear_efficiency = 0.60;     // achievable fraction of peak for GEMMs
  double attn_fwd_efficiency = 0.50;   // FlashAttention forward
  double attn_bwd_efficiency = 0.40;   // FlashAttention backward: slower per FLOP than forward
  double memory_bytes = 80e9;          // HBM capacity
  double runtime_reserve_bytes = 6e9;  // CUDA context, allocator fragmentation, workspaces
  double kernel_overhead_s = 40e-6;    // kappa: launch/sync cost per pack per layer
  double p2p_bandwidth = 50e9;         // bytes/s between pipeline stages (inter-node IB per GPU)
  double p2p_latency_s = 10e-6;
  double dp_bandwidth = 50e9;  // bytes/s per GPU for DP gradient sync (ring)
  double dp_latency_s = 20e-6;
  // Inside one node (NVLink/NVSwitch): tensor- and context-parallel groups that fit a node use
  // this bandwidth, larger groups the inter-node p2p_bandwidth. H100 SXM NVLink 4 is 450 GB/s per
  // direction; about 300 GB/s is what NCCL ring collectives reach in practice.
  double nvlink_bandwidth = 300e9;
  double nvlink_latency_s = 5e-6;
  int gpus_per_node = 8;
};

struct ParallelConfig {
  int pp = 1;       // p: pipeline stages
  int dp = 1;       // d: data-parallel replicas
  int tp = 1;       // t: tensor parallel with sequence parallelism
  int vchunks = 1;  // virtual chunks for interleaved 1F1B
  int cp = 1;       // c: context parallelism (each sequence split into 2c chunks over c GPUs)
  // Layers of each stage (Megatron's uneven first/last stage); empty = decided by the cost model
  // (CostOptions::stage_split). When given: one entry per stage, each >= 1, summing to L.
  std::vector<int> stage_layers{};
};

// llama-2-7b, llama-3-8b, llama-3-70b, qwen2.5-32b, qwen2.5-72b
std::vector<std::string> model_preset_names();
// a100-80g, h100-sxm, h200
std::vector<std::string> gpu_preset_names();
Expected<ModelConfig> model_preset(const std::string& name);  // error lists the known names
Expected<GpuSpec> gpu_preset(const std::string& name);

// Validates ranges (positive sizes, heads divide hidden, kv_heads divides heads, layers divisible
// by pp*vchunks unless stage_layers splits them, tp divides heads...). Errors name the field.
Status validate(const ModelConfig& m, const ParallelConfig& par);
// Positive rates and capacities, efficiencies in (0, 1], non-negative latencies and reserve below
// the memory. Errors name the field ("gpu.peak_flops: must be positive").
Status validate(const GpuSpec& g);

}  // namespace slimpack
