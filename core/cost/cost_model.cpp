#include "cost/cost_model.h"

#include <algorithm>
#include <utility>

#include "cost/flops.h"
#include "cost/stage_split.h"

namespace slimpack {
namespace {

// Bytes per element of the formats docs/design.md section 3 assumes.
constexpr double kBf16Bytes = 2.0;
constexpr double kFp32Bytes = 4.0;
// Static bytes per parameter: bf16 weights + fp32 grads + (fp32 master, Adam m, v) sharded over DP.
constexpr double kWeightBytes = kBf16Bytes;
constexpr double kGradBytes = kFp32Bytes;
constexpr double kOptimizerBytes = 12.0;
// Attention pairs per token the auto stage split assumes when the batch is unknown (a 4K sample).
constexpr double kDefaultSplitPairsPerToken = 2048.0;

std::vector<int> split_layers(const ModelConfig& m, const ParallelConfig& par, const CostOptions& o,
                              const CostCoeffs& c) {
  const int p = std::max(1, par.pp);
  if (!par.stage_layers.empty()) return par.stage_layers;
  if (o.stage_split == StageSplit::Even || par.vchunks > 1 || p == 1)
    return even_stage_layers(m.layers, p);
  // One layer's forward + backward per token at the assumed attention density, against the LM
  // head and loss per token on the last stage (the embedding is a gather: no priced work).
  const double ppt =
      o.split_pairs_per_token > 0.0 ? o.split_pairs_per_token : kDefaultSplitPairsPerToken;
  const double layer =
      c.forward.alpha + c.backward.alpha + (c.forward.beta + c.backward.beta) * ppt;
  std::vector<double> extra(static_cast<std::size_t>(p), 0.0);
  if (o.include_head) extra.back() = c.head_forward_per_token + c.head_backward_per_token;
  return balanced_stage_layers(m.layers, layer, extra);
}

}  // namespace

CostModel::CostModel(ModelConfig model, GpuSpec gpu, ParallelConfig par, CostOptions options)
    : model_(std::move(model)),
      gpu_(std::move(gpu)),
      par_(par),
      options_(options),
      coeffs_(coeffs_from_flops(model_, gpu_, par_)),
      stage_layers_(split_layers(model_, par_, options_, coeffs_)) {}

void CostModel::set_coeffs(const CostCoeffs& c) {
  coeffs_ = c;
  stage_layers_ = split_layers(model_, par_, options_, coeffs_);
}

Status validate_split(const ModelConfig& model, const ParallelConfig& par,
                      const CostOptions& options) {
  // An automatic split need not divide L by p: validate the split it will use.
  ParallelConfig checked = par;
  if (checked.stage_layers.empty() && options.stage_split == StageSplit::Auto &&
      checked.vchunks == 1 && model.layers >= checked.pp && checked.pp > 0)
    checked.stage_layers = even_stage_layers(model.layers, checked.pp);
  return validate(model, checked);
}

Expected<CostModel> CostModel::create(ModelConfig model, GpuSpec gpu, ParallelConfig par,
                                      CostOptions options) {
  if (auto s = validate_split(model, par, options); !s) return s.error();
  if (!(options.cp_overlap >= 0.0 && options.cp_overlap <= 1.0))
    return Error::bad_field("options.cp_overlap", "must lie in [0, 1]");
  if (!(options.tp_comm_exposed >= 0.0 && options.tp_comm_exposed <= 1.0))
    return Error::bad_field("options.tp_comm_exposed", "must lie in [0, 1]");
  if (!(options.short_query_tokens >= 0.0))
    return Error::bad_field("options.short_query_tokens", "must not be negative");
  if (!(options.split_pairs_per_token >= 0.0))
    return Error::bad_field("options.split_pairs_per_token", "must not be negative");
  if (options.recompute.mode == RecomputeMode::Layers && options.recompute.layers < 1)
    return Error::bad_field("options.recompute", "a layer count must be positive");
  if (auto s = validate(gpu); !s) return s.error();
  if (!(options.memory_cap_bytes >= 0.0))
    return Error::bad_field("options.memory_cap_bytes", "must not be negative");
  if (options.token_cap < 0) return Error::bad_field("options.token_cap", "must not be negative");
  return CostModel(std::move(model), std::move(gpu), par, options);
}

CostCoeffs CostModel::coeffs_from_flops(const ModelConfig& m, const GpuSpec& g,
                                        const ParallelConfig& par) {
  // Every FLOP is split evenly over the t tensor-parallel GPUs; each kind runs at its own
  // achievable fraction of peak.
  const double rate = static_cast<double>(par.tp) * g.peak_flops;
  const double linear_rate = rate * g.linear_efficiency;
  const double per_token_linear = flops::linear_forward(m, 1.0);  // 2 P_L
  const double per_pair_attention = 4.0 * m.attention_width();
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

int CostModel::layers_on_stage(int stage) const {
  if (stage < 0 || static_cast<std::size_t>(stage) >= stage_layers_.size()) return 0;
  return stage_layers_[static_cast<std::size_t>(stage)];
}

double CostModel::group_bandwidth(int span) const {
  return span <= gpu_.gpus_per_node ? gpu_.nvlink_bandwidth : gpu_.p2p_bandwidth;
}

double CostModel::group_latency(int span) const {
  return span <= gpu_.gpus_per_node ? gpu_.nvlink_latency_s : gpu_.p2p_latency_s;
}

double CostModel::cp_ring_time(Pass pass, double tokens, double pairs) const {
  const int c = par_.cp;
  if (c <= 1) return 0.0;
  // Megatron orders ranks TP, then CP: a CP group spans t * c consecutive GPUs. Each of the c - 1
  // ring steps passes this rank's K/V chunk (tokens / c) on; backward passes K/V and dK/dV.
  const int span = par_.tp * c;
  const double bytes = tokens / c * kv_bytes_per_token_layer();
  double comm = (c - 1.0) * (group_latency(span) + bytes / group_bandwidth(span));
  if (pass == Pass::Backward) comm *= 2.0;
  const PassCoeffs& k = pass == Pass::Forward ? coeffs_.forward : coeffs_.backward;
  const double attention = k.beta * pairs / c;
  return comm - std::min(comm, options_.cp_overlap * attention);
}

double CostModel::tp_comm_time(double tokens) const {
  const int t = par_.tp;
  if (t <= 1 || options_.tp_comm_exposed <= 0.0) return 0.0;
  // Ring all-gather / reduce-scatter: each GPU moves (t-1)/t of the full activation in t-1 steps.
  constexpr double kCollectivesPerPass = 4.0;
  const double bytes = tokens / par_.cp * kBf16Bytes * model_.hidden;
  const double one = (t - 1.0) * group_latency(t) + (t - 1.0) / t * bytes / group_bandwidth(t);
  return options_.tp_comm_exposed * kCollectivesPerPass * one;
}

double CostModel::effective_pairs(const Pack& pack) const {
  const double l0 = options_.short_query_tokens;
  if (l0 <= 0.0) return pack.attention_pairs();
  double total = 0.0;
  for (const Segment& seg : pack.segments) {
    const double shards = std::max(1, seg.shards);
    // With CP each rank runs two chunks of the segment: l / (2c) queries per attention call.
    const double l =
        static_cast<double>(seg.tokens()) / shards / (par_.cp > 1 ? 2.0 * par_.cp : 1.0);
    const double r = l0 / std::max(1.0, l);
    const double penalty = 1.0 + r * r;
    total += seg.attention_pairs() * penalty;  // a shard's pairs: attention_pairs() divides
  }
  return total;
}

double CostModel::time(Pass pass, int stage, double tokens, double pairs, int recomputed) const {
  // Context parallelism splits every sequence into 2c chunks, chunk i and 2c-1-i on one rank, so
  // each of the c ranks gets tokens / c and (causally balanced) pairs / c.
  const double c = par_.cp;
  auto layer = [&](Pass which) {
    const PassCoeffs& k = which == Pass::Forward ? coeffs_.forward : coeffs_.backward;
    return k.kappa + k.alpha * tokens / c + k.beta * pairs / c +
           cp_ring_time(which, tokens, pairs) + tp_comm_time(tokens);
  };
  double t = layers_on_stage(stage) * layer(pass);
  // A recomputed layer runs its forward again inside the backward.
  if (pass == Pass::Backward && recomputed > 0)
    t += std::min(recomputed, layers_on_stage(stage)) * layer(Pass::Forward);
  // The embedding lookup on stage 0 is a gather with no FLOPs and is not priced; the LM head is.
  if (options_.include_head && stage == par_.pp - 1) {
    t += tokens / c *
         (pass == Pass::Forward ? coeffs_.head_forward_per_token : coeffs_.head_backward_per_token);
  }
  return t;
}

double CostModel::pack_time(Pass pass, int stage, const Pack& pack, int recomputed) const {
  if (stage >= 0 && static_cast<std::size_t>(stage) < pack.stage_times.size())
    return pack.stage_times[static_cast<std::size_t>(stage)];
  if (pack.time) return *pack.time;
  return time(pass, stage, static_cast<double>(pack.tokens()), effective_pairs(pack), recomputed) +
         merge_comm_time(pack, stage);
}

double CostModel::kv_bytes_per_token_layer() const {
  // With t > g the K/V heads are replicated, so a GPU holds at least one whole K/V head.
  const double kv_split = std::min(par_.tp, model_.kv_heads);
  return 2.0 * model_.kv_heads * model_.head_dim() / kv_split * kBf16Bytes;
}

double CostModel::merge_comm_time(const Pack& pack, int stage) const {
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
  return layers_on_stage(stage) * total;
}

double CostModel::p2p_bytes(double tokens) const {
  // bf16 activations of h per token, split by sequence parallelism over t and by CP over c.
  return tokens * kBf16Bytes * model_.hidden / par_.tp / par_.cp;
}

double CostModel::p2p_time(double tokens) const {
  return gpu_.p2p_latency_s + p2p_bytes(tokens) / gpu_.p2p_bandwidth;
}

double CostModel::dp_sync_time(int stage) const {
  // CP ranks hold the same weights: gradients are reduced over the d * c ranks (Megatron's
  // data-parallel-with-context-parallel group).
  if (par_.dp * par_.cp <= 1 || !options_.include_dp_sync) return 0.0;
  const double d = static_cast<double>(par_.dp) * par_.cp;
  const double params = params_on_stage(stage) / par_.tp;
  const double ring = (d - 1.0) / d / gpu_.dp_bandwidth;
  const double steps_latency = (d - 1.0) * gpu_.dp_latency_s;
  const double reduce_scatter = ring * kFp32Bytes * params + steps_latency;
  const double all_gather = ring * kBf16Bytes * params + steps_latency;
  return reduce_scatter + all_gather;
}

double CostModel::params_on_stage(int stage) const {
  double p = layers_on_stage(stage) * model_.params_per_layer();
  const double table = static_cast<double>(model_.hidden) * model_.vocab;
  if (stage == 0) p += table;  // embedding
  // The LM head. A tied one is the embedding itself on a single stage; over several stages the
  // last keeps its own copy of the table (as Megatron does), so only p = 1 saves it.
  if (stage == par_.pp - 1 && !(model_.tied_embeddings && par_.pp == 1)) p += table;
  return p;
}

double CostModel::static_bytes(int stage) const {
  // The distributed optimizer shards its state over the d * c ranks that share the weights.
  const double per_param =
      kWeightBytes + kGradBytes + kOptimizerBytes / (static_cast<double>(par_.dp) * par_.cp);
  return per_param * params_on_stage(stage) / par_.tp + gpu_.runtime_reserve_bytes;
}

double CostModel::activation_bytes_per_token_layer() const {
  const double h = model_.hidden, f = model_.ffn, a = model_.heads, t = par_.tp;
  const double q = model_.attention_width();  // Q and the attention output: a dh wide
  const double kv = 4.0 * model_.kv_heads * model_.head_dim() / std::min(par_.tp, model_.kv_heads);
  // Selective recompute drops the SwiGLU output (2f bytes per token, recomputed from gate and up).
  const double ffn = options_.recompute.mode == RecomputeMode::Selective ? 4.0 * f : 6.0 * f;
  // Four tensors h wide and two a dh wide, in bf16: 12 h when a dh = h.
  return ((8.0 * h + 4.0 * q + ffn) / t + kv + 4.0 * a / t) / par_.cp;
}

double CostModel::recomputed_bytes_per_token_layer() const {
  return kBf16Bytes * model_.hidden / par_.tp / par_.cp;
}

MemoryModel CostModel::memory_model(const std::vector<int>& recompute) const {
  MemoryModel mm;
  const double a_tok = activation_bytes_per_token_layer();
  const double in_tok = recomputed_bytes_per_token_layer();
  const double dkdv_layer =
      4.0 * model_.kv_heads * model_.head_dim() / std::min(par_.tp, model_.kv_heads) / par_.cp;
  for (int s = 0; s < par_.pp; ++s) {
    const auto si = static_cast<std::size_t>(s);
    const int ls = layers_on_stage(s);
    const int r = si < recompute.size() ? std::clamp(recompute[si], 0, ls) : 0;
    mm.static_bytes.push_back(static_bytes(s));
    mm.activation_per_token.push_back(a_tok * (ls - r) + in_tok * r);
    mm.dkdv_per_context_token.push_back(dkdv_layer * ls);
    // Recomputing a layer inside a backward rebuilds that layer's activations for the pack.
    mm.backward_working_per_token.push_back(r > 0 ? a_tok : 0.0);
  }
  mm.capacity_bytes = memory_cap();
  return mm;
}

std::vector<int> CostModel::max_recompute_layers() const {
  std::vector<int> r(static_cast<std::size_t>(par_.pp), 0);
  const RecomputeSpec& spec = options_.recompute;
  for (int s = 0; s < par_.pp; ++s) {
    const auto si = static_cast<std::size_t>(s);
    if (spec.mode == RecomputeMode::Full || spec.mode == RecomputeMode::Auto)
      r[si] = layers_on_stage(s);
    if (spec.mode == RecomputeMode::Layers) r[si] = std::min(spec.layers, layers_on_stage(s));
  }
  return r;
}

std::vector<int> CostModel::recompute_layers(const Plan& plan) const {
  const int p = par_.pp;
  std::vector<int> r(static_cast<std::size_t>(p), 0);
  const RecomputeSpec& spec = options_.recompute;
  for (int s = 0; s < p; ++s) {
    const auto si = static_cast<std::size_t>(s);
    if (spec.mode == RecomputeMode::Full) r[si] = layers_on_stage(s);
    if (spec.mode == RecomputeMode::Layers) r[si] = std::min(spec.layers, layers_on_stage(s));
  }
  if (spec.mode != RecomputeMode::Auto || memory_cap() <= 0.0 || plan.stages != p) return r;
  // Auto: per stage, the fewest layers whose peak fits. A stage's peak depends on its own count
  // only, so all stages are searched at once: 0 first, then bisection on [1, L_s] (the peak
  // falls as layers are recomputed once the first one pays for the working buffer).
  auto peaks = [&](const std::vector<int>& layers) {
    const MemoryModel mm = memory_model(layers);
    std::vector<double> worst(static_cast<std::size_t>(p), 0.0);
    for (int rep = 0; rep < plan.dp(); ++rep) {
      const std::vector<double> pk = peak_memory_per_stage(plan, rep, mm);
      for (std::size_t s = 0; s < pk.size() && s < worst.size(); ++s)
        worst[s] = std::max(worst[s], pk[s]);
    }
    return worst;
  };
  const double cap = memory_cap();
  const std::vector<double> none = peaks(r);
  std::vector<int> lo(static_cast<std::size_t>(p), 1), hi(static_cast<std::size_t>(p), 0);
  bool searching = false;
  for (int s = 0; s < p; ++s) {
    const auto si = static_cast<std::size_t>(s);
    if (none[si] <= cap) continue;
    hi[si] = layers_on_stage(s);
    searching = true;
  }
  while (searching) {
    searching = false;
    std::vector<int> mid(static_cast<std::size_t>(p), 0);
    for (std::size_t s = 0; s < mid.size(); ++s)
      mid[s] = lo[s] < hi[s] ? (lo[s] + hi[s]) / 2 : hi[s];
    const std::vector<double> pk = peaks(mid);
    for (std::size_t s = 0; s < mid.size(); ++s) {
      if (lo[s] >= hi[s]) continue;
      if (pk[s] <= cap)
        hi[s] = mid[s];
      else
        lo[s] = mid[s] + 1;
      searching = searching || lo[s] < hi[s];
    }
  }
  return hi;
}

double CostModel::memory_cap() const {
  return options_.memory_cap_bytes > 0.0 ? options_.memory_cap_bytes : gpu_.memory_bytes;
}

double CostModel::step_flops(double tokens, double pairs) const {
  return flops::training_flops(model_, tokens, pairs);
}

double CostModel::cluster_peak_flops() const {
  return static_cast<double>(gpus()) * gpu_.peak_flops;
}

}  // namespace slimpack
