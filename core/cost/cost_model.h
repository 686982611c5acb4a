#pragma once
// The cost model of DESIGN section 3: pack time per stage, memory, communication.
// T = Ls (kappa + alpha Ntok + beta Apairs) (+ LM head on the last stage, embedding on the first),
// separate (kappa, alpha, beta) for forward and backward.
#include <optional>
#include <string>

#include "cost/model_config.h"
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

// Named, overridable constants (DESIGN: "all constants are named, documented, overridable").
struct CostOptions {
  double memory_cap_bytes = 0.0;  // 0 = the GPU's memory_bytes
  Tokens token_cap = 0;           // max tokens per pack for L5; 0 = unlimited
  bool include_head = true;       // price the LM head on the last stage
  bool include_dp_sync = true;
};

class CostModel {
 public:
  CostModel(ModelConfig model, GpuSpec gpu, ParallelConfig par, CostOptions options = {});
  // Validates the model, GPU, parallel config and options first (errors name the field).
  static Expected<CostModel> create(ModelConfig model, GpuSpec gpu, ParallelConfig par,
                                    CostOptions options = {});

  // Coefficients derived from FLOPs and the GPU's achievable rates (the default).
  static CostCoeffs coeffs_from_flops(const ModelConfig& m, const GpuSpec& g,
                                      const ParallelConfig& par);
  // Replaces the coefficients, e.g. with a fitted cost profile.
  void set_coeffs(const CostCoeffs& c) { coeffs_ = c; }

  const ModelConfig& model() const { return model_; }
  const GpuSpec& gpu() const { return gpu_; }
  const ParallelConfig& parallel() const { return par_; }
  const CostOptions& options() const { return options_; }
  const CostCoeffs& coeffs() const { return coeffs_; }
  int layers_per_stage() const;  // Ls = L / p
  int stages() const { return par_.pp; }

  // Time in seconds of work (tokens, pairs) on `stage` for one pass, all its layers.
  double time(Pass pass, int stage, double tokens, double pairs) const;
  // Time of a pack on a stage: pack.stage_times / pack.time when present, else the model.
  double pack_time(Pass pass, int stage, const Pack& pack) const;
  // Extra time of DP-Merged segments in the pack (K/V all-gather over the shard group).
  double merge_comm_time(const Pack& pack) const;
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
  double activation_bytes_per_token_layer() const;  // A_tok
  MemoryModel memory_model() const;
  double memory_cap() const;

  // Model FLOPs of one training step of `tokens` tokens with `pairs` causal pairs (for MFU), and
  // the peak FLOP/s of all GPUs (p * d * t * peak).
  double step_flops(double tokens, double pairs) const;
  double cluster_peak_flops() const;

 private:
  ModelConfig model_;
  GpuSpec gpu_;
  ParallelConfig par_;
  CostOptions options_;
  CostCoeffs coeffs_;
};

}  // namespace slimpack
