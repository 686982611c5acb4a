#pragma once
// The cost model of docs/design.md section 3: pack time per stage, memory, communication.
// T = Ls (kappa + alpha Ntok + beta Apairs) (+ LM head on the last stage, embedding on the first),
// separate (kappa, alpha, beta) for forward and backward.
#include <optional>
#include <string>
#include <vector>

#include "cost/model_config.h"
#include "cost/recompute.h"
#include "plan/legality.h"
#include "plan/plan.h"

namespace slimpack {

// Per-layer time coefficients of one pass: seconds = kappa + alpha * Ntok + beta * Apairs.
struct PassCoeffs {
  double kappa = 0.0;
  double alpha = 0.0;
  double beta = 0.0;
};

struct CostCoeffs {
  PassCoeffs forward;
  PassCoeffs backward;
  double head_forward_per_token = 0.0;  // LM head seconds per token on the last stage
  double head_backward_per_token = 0.0;
  std::string provenance = "flops";  // "flops" (derived from the GPU preset) or a profile's name
};

// How layers are split over stages when ParallelConfig::stage_layers is empty.
enum class StageSplit {
  Even,  // L / p each (L must divide)
  Auto,  // balance stage work including the LM head and loss on the last stage (stage_split.h)
};

// Named, overridable constants (docs/design.md section 3: "all constants are named, documented,
// overridable"). The defaults are the plain model of docs/design.md section 3 (no recompute, even
// split); the scenario (core/app/scenario.h) turns on what long-context users expect: recompute
// auto, auto split.
struct CostOptions {
  double memory_cap_bytes = 0.0;  // 0 = the GPU's memory_bytes
  Tokens token_cap = 0;           // max tokens per pack for L5; 0 = unlimited
  bool include_head = true;       // price the LM head on the last stage
  bool include_dp_sync = true;
  RecomputeSpec recompute;  // activation recomputation (recompute.h)
  StageSplit stage_split = StageSplit::Even;
  // Attention pairs per token the auto split weighs a layer with (the batch's when known);
  // 0 = 2048 (a 4K-token sample).
  double split_pairs_per_token = 0.0;
  // Context parallelism: the fraction of a layer's attention compute that can hide the ring
  // exchange of K/V (Transformer Engine overlaps step i's transfer with step i-1's attention).
  double cp_overlap = 0.8;
  // Tensor-parallel communication with sequence parallelism: the fraction of the per-layer
  // all-gathers / reduce-scatters left exposed (0 = not priced, 1 = none overlapped; Megatron
  // without --tp-comm-overlap is close to 1, Transformer Engine's userbuffer overlap to 0.3).
  double tp_comm_exposed = 0.0;
  // Short query blocks run below FlashAttention's efficiency: a segment of l query tokens (per
  // CP rank) pays its attention pairs times 1 + (short_query_tokens / l)^2 (0 = not priced).
  // 384 fits the H100 measurements of docs/profiling.md (512-token blocks 1.9x, 1024 1.1x,
  // 256-token samples 3-4.5x the long-slice cost per pair).
  double short_query_tokens = 0.0;
};

// Cost options the scenario (core/app/scenario.cpp) turns on, which CostOptions keeps off for the
// plain analytic model: exposed fraction of TP communication (Transformer Engine overlap) and the
// short-query-block scale fitted to the H100 measurements of docs/profiling.md. Here, beside the
// options, so that solver tests configure costs as the CLI does without restating the numbers.
inline constexpr double kScenarioTpCommExposed = 0.3;
inline constexpr double kScenarioShortQueryTokens = 384.0;

// validate(model, par) for the split the options ask for: an automatic split (one chunk per
// stage) need not divide the layers by p (8 layers on 3 stages: balanced_stage_layers); an even
// split and the interleaved schedule still need p * vchunks to divide them. What CostModel::create
// and a --costs file (cost_json.h) check.
Status validate_split(const ModelConfig& model, const ParallelConfig& par,
                      const CostOptions& options);

class CostModel {
 public:
  CostModel(ModelConfig model, GpuSpec gpu, ParallelConfig par, CostOptions options = {});
  // Validates the model, GPU, parallel config and options first (errors name the field).
  static Expected<CostModel> create(ModelConfig model, GpuSpec gpu, ParallelConfig par,
                                    CostOptions options = {});

  // Coefficients derived from FLOPs and the GPU's achievable rates (the default).
  static CostCoeffs coeffs_from_flops(const ModelConfig& m, const GpuSpec& g,
                                      const ParallelConfig& par);
  // Replaces the coefficients, e.g. with a fitted cost profile (re-balances an auto stage split).
  void set_coeffs(const CostCoeffs& c);

  const ModelConfig& model() const { return model_; }
  const GpuSpec& gpu() const { return gpu_; }
  const ParallelConfig& parallel() const { return par_; }
  const CostOptions& options() const { return options_; }
  const CostCoeffs& coeffs() const { return coeffs_; }
  int layers_on_stage(int stage) const;                        // L_s (even, auto or explicit split)
  int layers_per_stage() const { return layers_on_stage(0); }  // L_0 (= L / p when even)
  const std::vector<int>& stage_layers() const { return stage_layers_; }
  int stages() const { return par_.pp; }
  int gpus() const { return par_.pp * par_.tp * par_.cp * par_.dp; }

  // Time in seconds of work (tokens, pairs: the whole pack, before the CP split) on `stage` for
  // one pass, all its layers; `recomputed` layers of the stage add one forward each to backward.
  double time(Pass pass, int stage, double tokens, double pairs, int recomputed = 0) const;
  // Time of a pack on a stage: pack.stage_times / pack.time when present, else the model.
  double pack_time(Pass pass, int stage, const Pack& pack, int recomputed = 0) const;
  // Exposed time of the context-parallel ring exchange of one layer for a pack of `tokens`
  // tokens with `pairs` attention pairs (0 when cp = 1).
  double cp_ring_time(Pass pass, double tokens, double pairs) const;
  // Exposed tensor-parallel communication of one layer for a pack of `tokens` tokens (SP:
  // 2 all-gathers + 2 reduce-scatters of tokens/c * 2h bytes per pass).
  double tp_comm_time(double tokens) const;
  // Attention pairs of a pack weighted by the short-query-block penalty (= attention_pairs()
  // when options().short_query_tokens is 0).
  double effective_pairs(const Pack& pack) const;
  // Bandwidth and latency of a collective over `group` consecutive ranks (inside a node when the
  // group, with the tensor-parallel ranks under it, fits one).
  double group_bandwidth(int span) const;
  double group_latency(int span) const;
  // Extra time of DP-Merged segments in the pack (K/V all-gather over the shard group).
  double merge_comm_time(const Pack& pack, int stage = 0) const;
  // K/V bytes of one context token in one layer on one GPU: 2 (K,V) * g dh / min(t,g) * 2 (bf16).
  double kv_bytes_per_token_layer() const;

  // P2P activation transfer of a pack across one stage boundary: latency + Ntok*2h/t / bandwidth.
  double p2p_bytes(double tokens) const;
  double p2p_time(double tokens) const;
  // DP gradient sync of one stage (reduce-scatter + all-gather ring over d replicas).
  double dp_sync_time(int stage) const;

  // Memory (bytes).
  double params_on_stage(int stage) const;          // parameters held by one GPU of that stage
  double static_bytes(int stage) const;             // (2 + 4 + 12/d) * params / t + reserve
  double activation_bytes_per_token_layer() const;  // A_tok (/ c), selective recompute applied
  double recomputed_bytes_per_token_layer() const;  // a fully recomputed layer's input: 2h/t/c
  // Per-stage memory with `recompute[s]` layers recomputed on stage s (empty = none).
  MemoryModel memory_model(const std::vector<int>& recompute = {}) const;
  // The recomputed layers per stage of a plan under options().recompute: fixed counts for
  // none/selective/full/N, and for auto the fewest per stage whose peak fits the cap (all of the
  // stage's layers when even that does not fit).
  std::vector<int> recompute_layers(const Plan& plan) const;
  // The most layers per stage the recompute option allows (what solvers may count on to fit).
  std::vector<int> max_recompute_layers() const;
  double memory_cap() const;

  // Model FLOPs of one training step of `tokens` tokens with `pairs` causal pairs (for MFU), and
  // the peak FLOP/s of all GPUs (p * d * t * c * peak).
  double step_flops(double tokens, double pairs) const;
  double cluster_peak_flops() const;

 private:
  ModelConfig model_;
  GpuSpec gpu_;
  ParallelConfig par_;
  CostOptions options_;
  CostCoeffs coeffs_;
  std::vector<int> stage_layers_;
};

}  // namespace slimpack
