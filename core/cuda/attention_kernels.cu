// Tiled causal varlen attention on tensor cores (WMMA bf16 x bf16 -> fp32), FlashAttention-2
// structure without its software pipelining: one block of 4 warps per (64-row tile, query head).
// Tiles are staged in shared memory and every matmul is a warp-level WMMA over a 16-row strip, so
// the kernels are simple to check; they run well below FlashAttention's speed (see
// docs/profiling.md) but do the same FLOP pattern, so the time scales with the causal pairs.
#include <cuda_bf16.h>
#include <mma.h>

#include "cuda/attention_device.h"

namespace slimpack::profiling {
namespace {

using bf16 = __nv_bfloat16;
using namespace nvcuda;

constexpr int D = 128;  // head dim
constexpr int T = 64;   // tile rows (queries and keys)
constexpr int kThreads = 128;
constexpr int LDH = D + 8;  // bf16 row stride of [T][D] tiles (padding against bank conflicts)
constexpr int LDS = T + 4;  // fp32 row stride of [T][T] tiles
constexpr int LDP = T + 8;  // bf16 row stride of [T][T] tiles
constexpr int LDO = D + 4;  // fp32 row stride of [T][D] tiles
constexpr float kLog2e = 1.4426950408889634f;

using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major>;
using FragAc = wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::col_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major>;
using FragBc = wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major>;
using FragC = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;

// Copies `rows` rows of D bf16 from global (row stride ld elements) into a [T][LDH] tile, zeroing
// the rest.
__device__ void load_tile(bf16* dst, const bf16* src, int rows, long long ld) {
  for (int idx = threadIdx.x; idx < T * (D / 8); idx += kThreads) {
    const int r = idx / (D / 8), c = (idx % (D / 8)) * 8;
    uint4 val = make_uint4(0, 0, 0, 0);
    if (r < rows) val = *reinterpret_cast<const uint4*>(src + r * ld + c);
    *reinterpret_cast<uint4*>(dst + r * LDH + c) = val;
  }
}

// S[16 x 64] (fp32, row stride LDS) = A[16 x D] * B^T where B is [64 x D] row-major (bf16, LDH).
__device__ void strip_abt(float* s, const bf16* a, const bf16* b) {
  for (int j = 0; j < T / 16; ++j) {
    FragC acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < D / 16; ++k) {
      FragA fa;
      FragBc fb;
      wmma::load_matrix_sync(fa, a + k * 16, LDH);
      wmma::load_matrix_sync(fb, b + j * 16 * LDH + k * 16, LDH);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(s + j * 16, acc, LDS, wmma::mem_row_major);
  }
}

__global__ void __launch_bounds__(kThreads)
    attn_fwd_kernel(const bf16* __restrict__ Q, const bf16* __restrict__ K,
                    const bf16* __restrict__ V, bf16* __restrict__ O, float* __restrict__ LSE,
                    const int* __restrict__ segs, const int* __restrict__ items, int Hq, int Hkv,
                    float scale_log2) {
  extern __shared__ __align__(128) unsigned char smem[];
  bf16* Qs = reinterpret_cast<bf16*>(smem);
  bf16* Ks = Qs + T * LDH;
  bf16* Vs = Ks + T * LDH;
  float* Ss = reinterpret_cast<float*>(Vs + T * LDH);
  float* Os = Ss + T * LDS;
  bf16* Ps = reinterpret_cast<bf16*>(Os + T * LDO);
  float* m_s = reinterpret_cast<float*>(Ps + T * LDP);
  float* l_s = m_s + T;

  const int seg = items[2 * blockIdx.x], tile = items[2 * blockIdx.x + 1];
  const int q_start = segs[4 * seg], q_len = segs[4 * seg + 1], offset = segs[4 * seg + 2],
            kv_start = segs[4 * seg + 3];
  const int h = blockIdx.y, hk = h / (Hq / Hkv);
  const int q0 = tile * T, rows = min(T, q_len - q0);
  const long long ldq = static_cast<long long>(Hq) * D, ldkv = static_cast<long long>(Hkv) * D;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  load_tile(Qs, Q + (q_start + q0) * ldq + h * D, rows, ldq);
  for (int i = threadIdx.x; i < T * LDO; i += kThreads) Os[i] = 0.0f;
  if (threadIdx.x < T) {
    m_s[threadIdx.x] = -INFINITY;
    l_s[threadIdx.x] = 0.0f;
  }
  const int kv_end = offset + q0 + rows;  // keys visible to the last query of the tile
  // Softmax ownership: two lanes per row, 32 columns each.
  const int r = warp * 16 + lane / 2, half = lane % 2;
  const int q_pos = offset + q0 + r;

  for (int kv0 = 0; kv0 < kv_end; kv0 += T) {
    __syncthreads();  // previous tile's readers of Ks/Vs are done (and Qs/Os are initialised)
    const int kv_rows = min(T, kv_end - kv0);
    load_tile(Ks, K + (kv_start + kv0) * ldkv + hk * D, kv_rows, ldkv);
    load_tile(Vs, V + (kv_start + kv0) * ldkv + hk * D, kv_rows, ldkv);
    __syncthreads();

    strip_abt(Ss + warp * 16 * LDS, Qs + warp * 16 * LDH, Ks);
    __syncwarp();

    float* srow = Ss + r * LDS + half * 32;
    float mx = -INFINITY;
    for (int c = 0; c < 32; ++c) {
      const int k_pos = kv0 + half * 32 + c;
      const float s = (k_pos <= q_pos && k_pos < kv_end) ? srow[c] * scale_log2 : -INFINITY;
      srow[c] = s;
      mx = fmaxf(mx, s);
    }
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    const float m_old = m_s[r];
    float m_new = fmaxf(m_old, mx);
    if (m_new == -INFINITY) m_new = 0.0f;  // a padding row with nothing visible yet
    const float alpha = exp2f(m_old - m_new);
    float sum = 0.0f;
    bf16* prow = Ps + r * LDP + half * 32;
    for (int c = 0; c < 32; ++c) {
      const float p = exp2f(srow[c] - m_new);
      prow[c] = __float2bfloat16(p);
      sum += p;
    }
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    float* orow = Os + r * LDO + half * (D / 2);
    for (int c = 0; c < D / 2; ++c) orow[c] *= alpha;
    __syncwarp();
    if (half == 0) {
      m_s[r] = m_new;
      l_s[r] = l_s[r] * alpha + sum;
    }
    __syncwarp();

    // O[16 x D] += P[16 x 64] V[64 x D]
    for (int j = 0; j < D / 16; ++j) {
      FragC acc;
      float* o = Os + warp * 16 * LDO + j * 16;
      wmma::load_matrix_sync(acc, o, LDO, wmma::mem_row_major);
      for (int k = 0; k < T / 16; ++k) {
        FragA fa;
        FragB fb;
        wmma::load_matrix_sync(fa, Ps + warp * 16 * LDP + k * 16, LDP);
        wmma::load_matrix_sync(fb, Vs + k * 16 * LDH + j * 16, LDH);
        wmma::mma_sync(acc, fa, fb, acc);
      }
      wmma::store_matrix_sync(o, acc, LDO, wmma::mem_row_major);
    }
  }
  __syncthreads();
  if (r < rows) {
    const float inv = 1.0f / l_s[r];
    bf16* dst = O + (q_start + q0 + r) * ldq + h * D + half * (D / 2);
    const float* src = Os + r * LDO + half * (D / 2);
    for (int c = 0; c < D / 2; ++c) dst[c] = __float2bfloat16(src[c] * inv);
    if (half == 0) LSE[static_cast<long long>(q_start + q0 + r) * Hq + h] = m_s[r] + log2f(l_s[r]);
  }
}

// delta[row][h] = sum_d dO * O, one warp per (row, head).
__global__ void attn_delta_kernel(const bf16* __restrict__ O, const bf16* __restrict__ dO,
                                  float* __restrict__ delta, long long n_rows_heads) {
  const long long w = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (w >= n_rows_heads) return;
  float s = 0.0f;
  for (int d = lane; d < D; d += 32)
    s += __bfloat162float(O[w * D + d]) * __bfloat162float(dO[w * D + d]);
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) delta[w] = s;
}

// Adds a warp's 16x16 accumulator to fp32 global memory rows (row stride ld), rows < valid_rows.
__device__ void atomic_add_frag(const FragC& acc, float* scratch, float* dst, long long ld,
                                int valid_rows) {
  wmma::store_matrix_sync(scratch, acc, 16, wmma::mem_row_major);
  __syncwarp();
  const int lane = threadIdx.x % 32;
  for (int e = lane; e < 256; e += 32) {
    const int r = e / 16, c = e % 16;
    if (r < valid_rows) atomicAdd(dst + r * ld + c, scratch[e]);
  }
  __syncwarp();
}

__global__ void __launch_bounds__(kThreads)
    attn_bwd_kernel(const bf16* __restrict__ Q, const bf16* __restrict__ K,
                    const bf16* __restrict__ V, const bf16* __restrict__ dO,
                    const float* __restrict__ LSE, const float* __restrict__ delta,
                    float* __restrict__ dQa, float* __restrict__ dKa, float* __restrict__ dVa,
                    const int* __restrict__ segs, const int* __restrict__ items, int Hq, int Hkv,
                    float scale_log2, float scale) {
  extern __shared__ __align__(128) unsigned char smem[];
  bf16* Ks = reinterpret_cast<bf16*>(smem);
  bf16* Vs = Ks + T * LDH;
  bf16* Qs = Vs + T * LDH;
  bf16* dOs = Qs + T * LDH;
  float* STs = reinterpret_cast<float*>(dOs + T * LDH);  // S^T: [key][query]
  float* dPTs = STs + T * LDS;                           // dP^T
  bf16* PTb = reinterpret_cast<bf16*>(dPTs + T * LDS);
  bf16* dSTb = PTb + T * LDP;
  float* scratch = reinterpret_cast<float*>(dSTb + T * LDP);  // 4 warps x 256
  float* lse_s = scratch + 4 * 256;
  float* delta_s = lse_s + T;

  const int seg = items[2 * blockIdx.x], tile = items[2 * blockIdx.x + 1];
  const int q_start = segs[4 * seg], q_len = segs[4 * seg + 1], offset = segs[4 * seg + 2],
            kv_start = segs[4 * seg + 3];
  const int h = blockIdx.y, hk = h / (Hq / Hkv);
  const int kv0 = tile * T, kv_rows = min(T, offset + q_len - kv0);
  const long long ldq = static_cast<long long>(Hq) * D, ldkv = static_cast<long long>(Hkv) * D;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float* my_scratch = scratch + warp * 256;

  load_tile(Ks, K + (kv_start + kv0) * ldkv + hk * D, kv_rows, ldkv);
  load_tile(Vs, V + (kv_start + kv0) * ldkv + hk * D, kv_rows, ldkv);

  FragC dK[D / 16], dV[D / 16];
  for (int j = 0; j < D / 16; ++j) {
    wmma::fill_fragment(dK[j], 0.0f);
    wmma::fill_fragment(dV[j], 0.0f);
  }
  // Elementwise ownership: key row r, query columns half*32 .. +32.
  const int r = warp * 16 + lane / 2, half = lane % 2;
  const int k_pos = kv0 + r;
  const int first_q = max(0, kv0 - offset);  // first query at or after this key tile
  for (int qi0 = (first_q / T) * T; qi0 < q_len; qi0 += T) {
    const int q_rows = min(T, q_len - qi0);
    __syncthreads();  // previous iteration is done with Qs, dOs, dSTb
    load_tile(Qs, Q + (q_start + qi0) * ldq + h * D, q_rows, ldq);
    load_tile(dOs, dO + (q_start + qi0) * ldq + h * D, q_rows, ldq);
    if (threadIdx.x < T) {
      const bool ok = threadIdx.x < q_rows;
      const long long row = static_cast<long long>(q_start + qi0 + threadIdx.x) * Hq + h;
      lse_s[threadIdx.x] = ok ? LSE[row] : 0.0f;
      delta_s[threadIdx.x] = ok ? delta[row] : 0.0f;
    }
    __syncthreads();

    strip_abt(STs + warp * 16 * LDS, Ks + warp * 16 * LDH, Qs);    // S^T = K Q^T
    strip_abt(dPTs + warp * 16 * LDS, Vs + warp * 16 * LDH, dOs);  // dP^T = V dO^T
    __syncwarp();
    for (int c0 = 0; c0 < 32; ++c0) {
      const int c = half * 32 + c0;
      const int q_pos = offset + qi0 + c;
      const bool valid = c < q_rows && r < kv_rows && k_pos <= q_pos;
      const float p = valid ? exp2f(STs[r * LDS + c] * scale_log2 - lse_s[c]) : 0.0f;
      const float ds = p * (dPTs[r * LDS + c] - delta_s[c]) * scale;
      PTb[r * LDP + c] = __float2bfloat16(p);
      dSTb[r * LDP + c] = __float2bfloat16(ds);
    }
    __syncwarp();
    // dV[16 x D] += P^T[16 x 64] dO[64 x D];  dK[16 x D] += dS^T[16 x 64] Q[64 x D]
    for (int k = 0; k < T / 16; ++k) {
      FragA fp, fds;
      wmma::load_matrix_sync(fp, PTb + warp * 16 * LDP + k * 16, LDP);
      wmma::load_matrix_sync(fds, dSTb + warp * 16 * LDP + k * 16, LDP);
      for (int j = 0; j < D / 16; ++j) {
        FragB fdo, fq;
        wmma::load_matrix_sync(fdo, dOs + k * 16 * LDH + j * 16, LDH);
        wmma::load_matrix_sync(fq, Qs + k * 16 * LDH + j * 16, LDH);
        wmma::mma_sync(dV[j], fp, fdo, dV[j]);
        wmma::mma_sync(dK[j], fds, fq, dK[j]);
      }
    }
    __syncthreads();  // all of dS^T is written
    // dQ[16 x D] (queries warp*16..) += dS[16 x 64] K[64 x D]; dS = (dS^T)^T read column-major.
    const int my_q = qi0 + warp * 16;
    const int valid_q = min(16, q_len - my_q);
    if (valid_q > 0) {
      for (int j = 0; j < D / 16; ++j) {
        FragC acc;
        wmma::fill_fragment(acc, 0.0f);
        for (int k = 0; k < T / 16; ++k) {
          FragAc fa;
          FragB fb;
          wmma::load_matrix_sync(fa, dSTb + k * 16 * LDP + warp * 16, LDP);
          wmma::load_matrix_sync(fb, Ks + k * 16 * LDH + j * 16, LDH);
          wmma::mma_sync(acc, fa, fb, acc);
        }
        atomic_add_frag(acc, my_scratch, dQa + (q_start + my_q) * ldq + h * D + j * 16, ldq,
                        valid_q);
      }
    }
  }
  const int valid_k = min(16, kv_rows - warp * 16);
  if (valid_k > 0) {
    float* base_k = dKa + (kv_start + kv0 + warp * 16) * ldkv + hk * D;
    float* base_v = dVa + (kv_start + kv0 + warp * 16) * ldkv + hk * D;
    for (int j = 0; j < D / 16; ++j) {
      atomic_add_frag(dK[j], my_scratch, base_k + j * 16, ldkv, valid_k);
      atomic_add_frag(dV[j], my_scratch, base_v + j * 16, ldkv, valid_k);
    }
  }
}

__global__ void to_bf16_kernel(bf16* dst, const float* src, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    dst[i] = __float2bfloat16(src[i]);
}

__global__ void to_float_kernel(float* dst, const bf16* src, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    dst[i] = __bfloat162float(src[i]);
}

__global__ void fill_random_kernel(bf16* dst, long long n, unsigned seed, float scale) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed ^ static_cast<unsigned>(i >> 32);
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    dst[i] = __float2bfloat16(scale * (2.0f * (x * (1.0f / 4294967296.0f)) - 1.0f));
  }
}

constexpr int kFwdSmem = 3 * T * LDH * 2 + T * LDS * 4 + T * LDO * 4 + T * LDP * 2 + 2 * T * 4;
constexpr int kBwdSmem =
    4 * T * LDH * 2 + 2 * T * LDS * 4 + 2 * T * LDP * 2 + 4 * 256 * 4 + 2 * T * 4;

int grid_for(long long n) {
  return static_cast<int>(min(4096LL, (n + 255) / 256));
}

}  // namespace

cudaError_t attention_forward(const AttnDeviceArgs& a, cudaStream_t stream) {
  if (a.num_forward_items == 0) return cudaSuccess;
  static bool configured = false;
  if (!configured) {
    const cudaError_t e = cudaFuncSetAttribute(
        attn_fwd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kFwdSmem);
    if (e != cudaSuccess) return e;
    configured = true;
  }
  const float scale_log2 = kLog2e / sqrtf(static_cast<float>(D));
  attn_fwd_kernel<<<dim3(a.num_forward_items, a.q_heads), kThreads, kFwdSmem, stream>>>(
      static_cast<const bf16*>(a.q), static_cast<const bf16*>(a.k), static_cast<const bf16*>(a.v),
      static_cast<bf16*>(a.out), a.lse, a.segments, a.forward_items, a.q_heads, a.kv_heads,
      scale_log2);
  return cudaGetLastError();
}

cudaError_t attention_backward(const AttnDeviceArgs& a, cudaStream_t stream) {
  if (a.num_backward_items == 0) return cudaSuccess;
  static bool configured = false;
  if (!configured) {
    const cudaError_t e = cudaFuncSetAttribute(
        attn_bwd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBwdSmem);
    if (e != cudaSuccess) return e;
    configured = true;
  }
  const long long nq = static_cast<long long>(a.total_q) * a.q_heads * D;
  const long long nkv = static_cast<long long>(a.total_kv) * a.kv_heads * D;
  cudaError_t e;
  if ((e = cudaMemsetAsync(a.dq_acc, 0, nq * sizeof(float), stream)) != cudaSuccess) return e;
  if ((e = cudaMemsetAsync(a.dk_acc, 0, nkv * sizeof(float), stream)) != cudaSuccess) return e;
  if ((e = cudaMemsetAsync(a.dv_acc, 0, nkv * sizeof(float), stream)) != cudaSuccess) return e;
  const long long rows_heads = static_cast<long long>(a.total_q) * a.q_heads;
  attn_delta_kernel<<<static_cast<int>((rows_heads * 32 + 255) / 256), 256, 0, stream>>>(
      static_cast<const bf16*>(a.out), static_cast<const bf16*>(a.dout), a.delta, rows_heads);
  const float scale = 1.0f / sqrtf(static_cast<float>(D));
  attn_bwd_kernel<<<dim3(a.num_backward_items, a.q_heads), kThreads, kBwdSmem, stream>>>(
      static_cast<const bf16*>(a.q), static_cast<const bf16*>(a.k), static_cast<const bf16*>(a.v),
      static_cast<const bf16*>(a.dout), a.lse, a.delta, a.dq_acc, a.dk_acc, a.dv_acc, a.segments,
      a.backward_items, a.q_heads, a.kv_heads, scale * kLog2e, scale);
  to_bf16_kernel<<<grid_for(nq), 256, 0, stream>>>(static_cast<bf16*>(a.dq), a.dq_acc, nq);
  to_bf16_kernel<<<grid_for(nkv), 256, 0, stream>>>(static_cast<bf16*>(a.dk), a.dk_acc, nkv);
  to_bf16_kernel<<<grid_for(nkv), 256, 0, stream>>>(static_cast<bf16*>(a.dv), a.dv_acc, nkv);
  return cudaGetLastError();
}

cudaError_t fill_random_bf16(void* data, long long n, unsigned seed, float scale,
                             cudaStream_t stream) {
  fill_random_kernel<<<grid_for(n), 256, 0, stream>>>(static_cast<bf16*>(data), n, seed, scale);
  return cudaGetLastError();
}

cudaError_t bf16_from_float(void* dst, const float* src, long long n, cudaStream_t stream) {
  to_bf16_kernel<<<grid_for(n), 256, 0, stream>>>(static_cast<bf16*>(dst), src, n);
  return cudaGetLastError();
}

cudaError_t float_from_bf16(float* dst, const void* src, long long n, cudaStream_t stream) {
  to_float_kernel<<<grid_for(n), 256, 0, stream>>>(dst, static_cast<const bf16*>(src), n);
  return cudaGetLastError();
}

}  // namespace slimpack::profiling
