#pragma once
// FLOP counts of docs/design.md section 3 (Narayanan et al. 2021; FlashAttention-2 backward
// factor).
#include "cost/model_config.h"

namespace slimpack::flops {

// Causal query-key pairs of l query tokens at offset o: l*o + l(l+1)/2.
double causal_pairs(double l, double o);
// Per layer, forward: linear 2 l W_L (the GEMM weights; biases are not priced).
double linear_forward(const ModelConfig& m, double l);
// Per layer, forward: causal attention 4 a dh l (o + (l+1)/2) (query heads count; GQA does not
// reduce it; a dh = h unless the head dimension is explicit).
double attention_forward(const ModelConfig& m, double l, double o);
// LM head on the last stage: 2 l h V.
double head_forward(const ModelConfig& m, double l);

inline constexpr double kLinearBackwardFactor = 2.0;
inline constexpr double kAttentionBackwardFactor = 2.5;  // recompute + 4 gradient matmuls
inline constexpr double kHeadBackwardFactor = 2.0;

double linear_backward(const ModelConfig& m, double l);
double attention_backward(const ModelConfig& m, double l, double o);
double head_backward(const ModelConfig& m, double l);

// Forward + backward FLOPs of a full training step over `tokens` tokens with `pairs` causal pairs
// (all layers, LM head included): the numerator of MFU.
double training_flops(const ModelConfig& m, double tokens, double pairs);

}  // namespace slimpack::flops
