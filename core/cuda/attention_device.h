#pragma once
// Launchers of the attention kernels on device buffers (used by the layer benchmark and the host
// entry points of attention.h). bf16 tensors are passed as void* so that plain C++ can include
// this.
#include <cuda_runtime.h>

namespace slimpack::profiling {

struct AttnDeviceArgs {
  // Work lists (device copies of AttnWorkItems).
  const int* segments = nullptr;
  const int* forward_items = nullptr;
  const int* backward_items = nullptr;
  int num_forward_items = 0;
  int num_backward_items = 0;
  int q_heads = 1, kv_heads = 1;
  int total_q = 0, total_kv = 0;
  // bf16 tensors in the layout of attention.h.
  const void* q = nullptr;
  const void* k = nullptr;
  const void* v = nullptr;
  void* out = nullptr;
  float* lse = nullptr;  // log2 of the softmax denominator of the scaled scores (kernel internal)
  // Backward.
  const void* dout = nullptr;
  float* delta = nullptr;   // rowsum(dO * O), [total_q][q_heads]
  float* dq_acc = nullptr;  // fp32 accumulators, zeroed by attention_backward
  float* dk_acc = nullptr;
  float* dv_acc = nullptr;
  void* dq = nullptr;  // bf16 results
  void* dk = nullptr;
  void* dv = nullptr;
};

cudaError_t attention_forward(const AttnDeviceArgs& a, cudaStream_t stream);
// Zeroes the accumulators, computes delta, runs the key-tile-parallel backward (recompute of P,
// dV += P^T dO, dP = dO V^T, dK += dS^T Q, dQ += dS K through fp32 atomics) and converts to bf16.
cudaError_t attention_backward(const AttnDeviceArgs& a, cudaStream_t stream);

// Fills n bf16 values with a hash of (seed, index) mapped to [-scale, scale].
cudaError_t fill_random_bf16(void* data, long long n, unsigned seed, float scale,
                             cudaStream_t stream);
// bf16 <-> float copies for tests.
cudaError_t bf16_from_float(void* dst, const float* src, long long n, cudaStream_t stream);
cudaError_t float_from_bf16(float* dst, const void* src, long long n, cudaStream_t stream);

}  // namespace slimpack::profiling
