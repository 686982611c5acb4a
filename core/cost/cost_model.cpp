#include "cost/cost_model.h"

#include <algorithm>
#include <utility>

#include "cost/flops.h"

namespace slimpack {
namespace {

// Bytes per element of the formats DESIGN section 3 assumes.
constexpr double kBf16Bytes = 2.0;
constexpr double kFp32Bytes = 4.0;
// Static bytes per parameter: bf16 weights + fp32 grads + (fp32 master, Adam m, v) sharded over DP.
constexpr double kWeightBytes = kBf16Bytes;
constexpr double kGradBytes = kFp32Bytes;
constexpr double kOptimizerBytes = 12.0;

}  // namespace

CostModel::CostModel(ModelConfig model, GpuSpec gpu, ParallelConfig par, CostOptions options)
    : model_(std::move(model)),
      gpu_(std::move(gpu)),
      par_(par),
      options_(options),
      coeffs_(coeffs_from_flops(model_, gpu_, par_)) {}

Expected<CostModel> CostModel::create(ModelConfig model, GpuSpec gpu, ParallelConfig par,
                                      CostOptions options) {
  if (auto s = validate(model, par); !s) return s.error();
  if (auto s = validate(gpu); !s) return s.error();
  if (!(options.memory_cap_bytes >= 0.0))
    return Error::bad_input("options.memory_cap_bytes: must not be negative");
  if (options.token_cap < 0) return Error::bad_input("options.token_cap: must not be negative");
  return CostModel(std::move(model), std::move(gpu), par, options);
}

CostCoeffs CostModel::coeffs_from_flops(const ModelConfig& m, const GpuSpec& g,
                                        const ParallelConfig& par) {
  // Every FLOP is split evenly over the t tensor-parallel GPUs; each kind runs at its own
  // achievable fraction of peak.
  const double rate = static_cast<double>(par.tp) * g.peak_flops;
  const double linear_rate = rate * g.linear_efficiency;
  const double per_token_linear = flops::linear_forward(m, 1.0);  // 2 P_L
  const double per_pair_attention = 4.0 * m.hidden;
  const double head_per_token = flops::head_forward(m, 1.0);  // 2 h V

  CostCoeffs c;
  c.forward.kappa = g.kernel_overhead_s;
  c.forward.alpha = per_token_linear / linear_rate;
  c.forward.beta = per_pair_attention / (rate * g.attn_fwd_efficiency);
  // Backward launches about twice the kernels of forward (dgrad + wgrad per GEMM).
  c.backward.kappa = 2.0 * g.kernel_overhead_s;
  c.backward.alpha = flops::kLinearBackwardFactor * per_token_linear / linear_rate;
  c.backward.beta =
      flops::kAttentionBackwardFactor * per_pair_attention / (rate * g.attn_bwd_efficiency);
  c.head_forward_per_token = head_per_token / linear_rate;
  c.head_backward_per_token = flops::kHeadBackwardFactor * head_per_token / linear_rate;
  c.provenance = "flops";
  return c;
}

int CostModel::layers_per_stage() const {
  return model_.layers / std::max(1, par_.pp);
}

double CostModel::time(Pass pass, int stage, double tokens, double pairs) const {
  const PassCoeffs& k = pass == Pass::Forward ? coeffs_.forward : coeffs_.backward;
  double t = layers_per_stage() * (k.kappa + k.alpha * tokens + k.beta * pairs);
  // The embedding lookup on stage 0 is a gather with no FLOPs and is not priced; the LM head is.
  if (options_.include_head && stage == par_.pp - 1) {
    t += tokens *
         (pass == Pass::Forward ? coeffs_.head_forward_per_token : coeffs_.head_backward_per_token);
  }
  return t;
}

double CostModel::pack_time(Pass pass, int stage, const Pack& pack) const {
  if (stage >= 0 && static_cast<std::size_t>(stage) < pack.stage_times.size())
    return pack.stage_times[static_cast<std::size_t>(stage)];
  if (pack.time) return *pack.time;
  return time(pass, stage, static_cast<double>(pack.tokens()), pack.attention_pairs()) +
         merge_comm_time(pack);
}

double CostModel::kv_bytes_per_token_layer() const {
  // With t > g the K/V heads are replicated, so a GPU holds at least one whole K/V head.
  const double kv_split = std::min(par_.tp, model_.kv_heads);
  return 2.0 * model_.kv_heads * model_.head_dim() / kv_split * kBf16Bytes;
}

double CostModel::merge_comm_time(const Pack& pack) const {
  // Each shard computes its share of the queries against the whole context [0, end), so every layer
  // all-gathers the K/V of the context over the shard group (ring: each GPU receives (n-1)/n of it
  // in n-1 steps). Backward reduce-scatters dK/dV of the same size, so both passes pay it.
  double total = 0.0;
  for (const auto& seg : pack.segments) {
    if (seg.shards <= 1) continue;
    const double n = seg.shards;
    const double bytes = (n - 1.0) / n * static_cast<double>(seg.end) * kv_bytes_per_token_layer();
    total += bytes / gpu_.dp_bandwidth + (n - 1.0) * gpu_.dp_latency_s;
  }
  return layers_per_stage() * total;
}

double CostModel::p2p_bytes(double tokens) const {
  // bf16 activations of h per token, split by sequence parallelism over t.
  return tokens * kBf16Bytes * model_.hidden / par_.tp;
}

double CostModel::p2p_time(double tokens) const {
  return gpu_.p2p_latency_s + p2p_bytes(tokens) / gpu_.p2p_bandwidth;
}

double CostModel::dp_sync_time(int stage) const {
  if (par_.dp <= 1 || !options_.include_dp_sync) return 0.0;
  const double d = par_.dp;
  const double params = params_on_stage(stage) / par_.tp;
  const double ring = (d - 1.0) / d / gpu_.dp_bandwidth;
  const double steps_latency = (d - 1.0) * gpu_.dp_latency_s;
  const double reduce_scatter = ring * kFp32Bytes * params + steps_latency;
  const double all_gather = ring * kBf16Bytes * params + steps_latency;
  return reduce_scatter + all_gather;
}

double CostModel::params_on_stage(int stage) const {
  double p = layers_per_stage() * model_.params_per_layer();
  const double table = static_cast<double>(model_.hidden) * model_.vocab;
  if (stage == 0) p += table;            // embedding
  if (stage == par_.pp - 1) p += table;  // untied LM head
  return p;
}

double CostModel::static_bytes(int stage) const {
  const double per_param = kWeightBytes + kGradBytes + kOptimizerBytes / par_.dp;
  return per_param * params_on_stage(stage) / par_.tp + gpu_.runtime_reserve_bytes;
}

double CostModel::activation_bytes_per_token_layer() const {
  const double h = model_.hidden, f = model_.ffn, a = model_.heads, t = par_.tp;
  const double kv = 4.0 * model_.kv_heads * model_.head_dim() / std::min(par_.tp, model_.kv_heads);
  return (12.0 * h + 6.0 * f) / t + kv + 4.0 * a / t;
}

MemoryModel CostModel::memory_model() const {
  MemoryModel mm;
  const double ls = layers_per_stage();
  const double a_tok = activation_bytes_per_token_layer();
  const double dkdv =
      ls * 4.0 * model_.kv_heads * model_.head_dim() / std::min(par_.tp, model_.kv_heads);
  for (int s = 0; s < par_.pp; ++s) {
    mm.static_bytes.push_back(static_bytes(s));
    mm.activation_per_token.push_back(a_tok * ls);
    mm.dkdv_per_context_token.push_back(dkdv);
  }
  mm.capacity_bytes = memory_cap();
  return mm;
}

double CostModel::memory_cap() const {
  return options_.memory_cap_bytes > 0.0 ? options_.memory_cap_bytes : gpu_.memory_bytes;
}

double CostModel::step_flops(double tokens, double pairs) const {
  return flops::training_flops(model_, tokens, pairs);
}

double CostModel::cluster_peak_flops() const {
  return static_cast<double>(par_.pp) * par_.dp * par_.tp * gpu_.peak_flops;
}

}  // namespace slimpack
