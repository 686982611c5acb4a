#include "cost/flops.h"

namespace slimpack::flops {

double causal_pairs(double l, double o) {
  return l * o + l * (l + 1.0) / 2.0;
}

double linear_forward(const ModelConfig& m, double l) {
  // The GEMMs only: a bias is one addition per output, which no count here weighs.
  return 2.0 * l * m.weights_per_layer();
}

double attention_forward(const ModelConfig& m, double l, double o) {
  // QK^T and PV over the causal pairs, 2 FLOPs per multiply-add each: 4 a dh per pair (4 h unless
  // the head dimension is explicit).
  return 4.0 * m.attention_width() * causal_pairs(l, o);
}

double head_forward(const ModelConfig& m, double l) {
  return 2.0 * l * static_cast<double>(m.hidden) * m.vocab;
}

double linear_backward(const ModelConfig& m, double l) {
  return kLinearBackwardFactor * linear_forward(m, l);
}

double attention_backward(const ModelConfig& m, double l, double o) {
  return kAttentionBackwardFactor * attention_forward(m, l, o);
}

double head_backward(const ModelConfig& m, double l) {
  return kHeadBackwardFactor * head_forward(m, l);
}

double training_flops(const ModelConfig& m, double tokens, double pairs) {
  const double per_layer = (1.0 + kLinearBackwardFactor) * 2.0 * m.weights_per_layer() * tokens +
                           (1.0 + kAttentionBackwardFactor) * 4.0 * m.attention_width() * pairs;
  return m.layers * per_layer + (1.0 + kHeadBackwardFactor) * head_forward(m, tokens);
}

}  // namespace slimpack::flops
