#pragma once
// Shared inputs of the attention tests: deterministic pseudo-random tensors already rounded to bf16
// (so the CPU reference sees exactly what the GPU kernels see).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cuda/attention.h"

namespace slimpack::profiling::testing {

inline float round_bf16(float x) {
  std::uint32_t u = 0;
  std::memcpy(&u, &x, 4);
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  u &= 0xffff0000u;
  std::memcpy(&x, &u, 4);
  return x;
}

inline std::vector<float> random_tensor(std::size_t n, std::uint32_t seed, float scale) {
  std::vector<float> v(n);
  std::uint32_t x = seed * 2654435761u + 1u;
  for (auto& e : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    e = round_bf16(scale * (2.0f * static_cast<float>(x) / 4294967296.0f - 1.0f));
  }
  return v;
}

inline float max_abs(const std::vector<float>& v) {
  float m = 0.0f;
  for (float x : v) m = std::max(m, std::fabs(x));
  return m;
}

inline float max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  float m = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

}  // namespace slimpack::profiling::testing
