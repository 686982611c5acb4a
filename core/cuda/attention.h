#pragma once
// Causal varlen attention over the segments of a pack (head dim 128, the size of every preset):
// the layout of its tensors, a double-precision CPU reference, and host entry points that run the
// CUDA kernels on host data (for the device tests). Query rows of segment s are
// [q_start, q_start + q_len); its K/V rows are [kv_start, kv_start + offset + q_len), the first
// `offset` of them the cached prefix. Query i of a segment sits at position offset + i and sees
// keys at positions 0..offset + i.
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "cuda/pack_shapes.h"

namespace slimpack::profiling {

inline constexpr int kHeadDim = 128;
inline constexpr int kAttnTile = 64;  // query rows and key rows of one kernel tile

struct AttnSegment {
  int q_start = 0, q_len = 0, offset = 0, kv_start = 0;
};

struct AttnLayout {
  int q_heads = 1;
  int kv_heads = 1;  // divides q_heads (grouped-query attention)
  std::vector<AttnSegment> segments;
  int total_q = 0;
  int total_kv = 0;
};

AttnLayout make_attn_layout(const PackShape& shape, int q_heads, int kv_heads);

// Kernel work lists, 2 ints per item (segment, tile), heaviest first so that the long tiles start
// early: forward items are query tiles (work ~ keys below the tile), backward items key tiles
// (work ~ queries at or after the tile).
struct AttnWorkItems {
  std::vector<int> segments;  // 4 ints per segment: q_start, q_len, offset, kv_start
  std::vector<int> forward;
  std::vector<int> backward;
};
AttnWorkItems make_work_items(const AttnLayout& layout);

// Row-major tensors: q, out, dq [total_q][q_heads][128]; k, v, dk, dv [total_kv][kv_heads][128];
// lse [total_q][q_heads] (natural log of the softmax denominator, scale 1/sqrt(128)).
struct AttnForward {
  std::vector<float> out, lse;
};
struct AttnGrads {
  std::vector<float> dq, dk, dv;
};

AttnForward attention_forward_reference(const AttnLayout& layout, const std::vector<float>& q,
                                        const std::vector<float>& k, const std::vector<float>& v);
AttnGrads attention_backward_reference(const AttnLayout& layout, const std::vector<float>& q,
                                       const std::vector<float>& k, const std::vector<float>& v,
                                       const std::vector<float>& dout);

// GPU runs (inputs rounded to bf16). Errors when no CUDA device is usable.
Expected<AttnForward> attention_forward_device(const AttnLayout& layout,
                                               const std::vector<float>& q,
                                               const std::vector<float>& k,
                                               const std::vector<float>& v);
// Runs the forward for O and lse, then the backward.
Expected<AttnGrads> attention_backward_device(const AttnLayout& layout, const std::vector<float>& q,
                                              const std::vector<float>& k,
                                              const std::vector<float>& v,
                                              const std::vector<float>& dout);

// Number of CUDA devices (0 when the runtime or driver reports none or fails).
int cuda_device_count();
std::string cuda_device_name(int device);

}  // namespace slimpack::profiling
