#pragma once
// The per-GPU work of one Llama-style layer under tensor parallelism t with sequence parallelism:
// every rank runs the GEMMs on all Ntok rows of the pack (after the sequence all-gather) with its
// 1/t share of the weights, and attention over its a/t query heads. TP communication is not timed.
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "cost/model_config.h"

namespace slimpack::profiling {

struct LayerDims {
  int hidden = 0;    // h
  int ffn_rank = 0;  // f / t
  int q_heads = 0;   // a / t
  int kv_heads = 0;  // g / t, at least 1 (KV heads are replicated when g < t)
  int head_dim = 0;  // dh = h / a
  int tp = 1;

  std::int64_t qkv_cols() const {
    return static_cast<std::int64_t>(q_heads + 2 * kv_heads) * head_dim;
  }
  std::int64_t attn_cols() const { return static_cast<std::int64_t>(q_heads) * head_dim; }
};

// Errors when t does not divide a, f, or (for g >= t) g, naming the field.
Expected<LayerDims> layer_dims(const ModelConfig& model, int tp);

// Row-major C[m x n] = op(A)[m x k] * op(B)[k x n]; trans_a means A is stored k x m, trans_b that B
// is stored n x k.
struct GemmShape {
  std::string name;
  std::int64_t m = 0, n = 0, k = 0;
  bool trans_a = false;
  bool trans_b = false;

  double flops() const {
    return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  }
};

// Forward: qkv (h -> qkv_cols), out (attn_cols -> h), gate_up (h -> 2 f/t), down (f/t -> h), each
// Y[N x out] = X[N x in] W[in x out].
std::vector<GemmShape> forward_gemms(const LayerDims& d, std::int64_t tokens);
// Backward, in reverse layer order: for each forward GEMM, dX = dY W^T ([N x in], k = out) and
// dW = X^T dY ([in x out], k = N).
std::vector<GemmShape> backward_gemms(const LayerDims& d, std::int64_t tokens);

// Largest element count of any A, B or C operand of the forward and backward GEMMs at `tokens`.
std::int64_t max_gemm_operand(const LayerDims& d, std::int64_t tokens);

}  // namespace slimpack::profiling
