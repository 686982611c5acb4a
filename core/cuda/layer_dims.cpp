#include "cuda/layer_dims.h"

#include <algorithm>

namespace slimpack::profiling {

Expected<LayerDims> layer_dims(const ModelConfig& m, int tp) {
  ParallelConfig par;
  par.tp = tp;
  par.pp = 1;
  if (auto st = validate(m, par); !st) return st.error();
  if (m.ffn % tp != 0)
    return Error::bad_field("parallel.tp", "" + std::to_string(tp) + " does not divide model.ffn " +
                                               std::to_string(m.ffn));
  if (m.kv_heads >= tp && m.kv_heads % tp != 0)
    return Error::bad_field(
        "parallel.tp",
        "" + std::to_string(tp) + " does not divide model.kv_heads " + std::to_string(m.kv_heads));
  LayerDims d;
  d.hidden = m.hidden;
  d.ffn_rank = m.ffn / tp;
  d.q_heads = m.heads / tp;
  d.kv_heads = std::max(1, m.kv_heads / tp);
  d.head_dim = m.head_dim();
  d.tp = tp;
  return d;
}

namespace {

struct Linear {
  const char* name;
  std::int64_t in, out;
};

std::vector<Linear> linears(const LayerDims& d) {
  return {{"qkv", d.hidden, d.qkv_cols()},
          {"out", d.attn_cols(), d.hidden},
          {"gate_up", d.hidden, 2LL * d.ffn_rank},
          {"down", d.ffn_rank, d.hidden}};
}

}  // namespace

std::vector<GemmShape> forward_gemms(const LayerDims& d, std::int64_t tokens) {
  std::vector<GemmShape> out;
  for (const auto& l : linears(d)) out.push_back({l.name, tokens, l.out, l.in, false, false});
  return out;
}

std::vector<GemmShape> backward_gemms(const LayerDims& d, std::int64_t tokens) {
  auto ls = linears(d);
  std::reverse(ls.begin(), ls.end());
  std::vector<GemmShape> out;
  for (const auto& l : ls) {
    out.push_back({std::string(l.name) + ".dgrad", tokens, l.in, l.out, false, true});
    out.push_back({std::string(l.name) + ".wgrad", l.in, l.out, tokens, true, false});
  }
  return out;
}

std::int64_t max_gemm_operand(const LayerDims& d, std::int64_t tokens) {
  std::int64_t best = 0;
  auto consider = [&](const std::vector<GemmShape>& gs) {
    for (const auto& g : gs) best = std::max({best, g.m * g.k, g.k * g.n, g.m * g.n});
  };
  consider(forward_gemms(d, tokens));
  consider(backward_gemms(d, tokens));
  return best;
}

}  // namespace slimpack::profiling
