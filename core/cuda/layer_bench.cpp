#include "cuda/layer_bench.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>

#include "cuda/attention.h"
#include "cuda/attention_device.h"
#include "cuda/device_buffer.h"

namespace slimpack::profiling {
namespace {

Status cublas_check(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return {};
  return Error::internal(std::string(what) + ": cuBLAS status " +
                         std::to_string(static_cast<int>(s)));
}

class CudaLayerBench final : public LayerBench {
 public:
  ~CudaLayerBench() override {
    if (handle_) cublasDestroy(handle_);
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  Status init(const LayerDims& dims, const BenchLimits& limits, int device) {
    dims_ = dims;
    limits_ = limits;
    if (dims.head_dim != kHeadDim)
      return Error::bad_input("head dim " + std::to_string(dims.head_dim) +
                              " is not supported: the attention kernels are built for 128");
    if (auto st = cuda_check(cudaSetDevice(device), "cudaSetDevice"); !st) return st;
    if (auto st = cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                             "cudaStreamCreate");
        !st)
      return st;
    if (auto st = cuda_check(cudaEventCreate(&start_), "cudaEventCreate"); !st) return st;
    if (auto st = cuda_check(cudaEventCreate(&stop_), "cudaEventCreate"); !st) return st;
    if (auto st = cublas_check(cublasCreate(&handle_), "cublasCreate"); !st) return st;
    if (auto st = cublas_check(cublasSetStream(handle_, stream_), "cublasSetStream"); !st)
      return st;

    const std::size_t gemm = static_cast<std::size_t>(max_gemm_operand(dims, limits.max_tokens));
    const std::size_t nq = static_cast<std::size_t>(limits.max_tokens) * dims.attn_cols();
    const std::size_t nkv = static_cast<std::size_t>(limits.max_context) * dims.kv_heads * kHeadDim;
    const std::size_t rows = static_cast<std::size_t>(limits.max_tokens) * dims.q_heads;
    const std::pair<DeviceBuffer*, std::size_t> bf16s[] = {
        {&ga_, gemm}, {&gb_, gemm}, {&gc_, gemm}, {&q_, nq},   {&k_, nkv}, {&v_, nkv},
        {&o_, nq},    {&do_, nq},   {&dq_, nq},   {&dk_, nkv}, {&dv_, nkv}};
    for (const auto& [buf, n] : bf16s) {
      if (auto st = buf->allocate(n * 2, "cudaMalloc"); !st) return st;
      if (auto st =
              cuda_check(fill_random_bf16(buf->get(), static_cast<long long>(n),
                                          static_cast<unsigned>(n * 7919u + 17u), 0.5f, stream_),
                         "fill_random_bf16");
          !st)
        return st;
    }
    const std::pair<DeviceBuffer*, std::size_t> floats[] = {
        {&lse_, rows}, {&delta_, rows}, {&dq_acc_, nq}, {&dk_acc_, nkv}, {&dv_acc_, nkv}};
    for (const auto& [buf, n] : floats)
      if (auto st = buf->allocate(n * 4, "cudaMalloc"); !st) return st;
    return cuda_check(cudaStreamSynchronize(stream_), "initialisation");
  }

  Expected<PackMeasurement> measure(const PackShape& shape, int warmup, int repeats) override {
    const std::int64_t tokens = pack_tokens(shape);
    if (tokens > limits_.max_tokens || pack_context_tokens(shape) > limits_.max_context)
      return Error::bad_input(describe(shape) + ": larger than the buffers (" +
                              std::to_string(limits_.max_tokens) + " tokens, " +
                              std::to_string(limits_.max_context) + " context)");
    const AttnLayout layout = make_attn_layout(shape, dims_.q_heads, dims_.kv_heads);
    const AttnWorkItems items = make_work_items(layout);
    DeviceBuffer segs, fwd, bwd;
    const std::pair<DeviceBuffer*, const std::vector<int>*> lists[] = {
        {&segs, &items.segments}, {&fwd, &items.forward}, {&bwd, &items.backward}};
    for (const auto& [buf, host] : lists) {
      if (auto st = buf->allocate(host->size() * sizeof(int), "cudaMalloc(items)"); !st)
        return st.error();
      if (auto st = cuda_check(cudaMemcpy(buf->get(), host->data(), host->size() * sizeof(int),
                                          cudaMemcpyHostToDevice),
                               "cudaMemcpy(items)");
          !st)
        return st.error();
    }
    AttnDeviceArgs a;
    a.segments = segs.as<int>();
    a.forward_items = fwd.as<int>();
    a.backward_items = bwd.as<int>();
    a.num_forward_items = static_cast<int>(items.forward.size() / 2);
    a.num_backward_items = static_cast<int>(items.backward.size() / 2);
    a.q_heads = layout.q_heads;
    a.kv_heads = layout.kv_heads;
    a.total_q = layout.total_q;
    a.total_kv = layout.total_kv;
    a.q = q_.get();
    a.k = k_.get();
    a.v = v_.get();
    a.out = o_.get();
    a.lse = lse_.as<float>();
    a.dout = do_.get();
    a.delta = delta_.as<float>();
    a.dq_acc = dq_acc_.as<float>();
    a.dk_acc = dk_acc_.as<float>();
    a.dv_acc = dv_acc_.as<float>();
    a.dq = dq_.get();
    a.dk = dk_.get();
    a.dv = dv_.get();

    const auto fwd_gemms = forward_gemms(dims_, tokens);
    const auto bwd_gemms = backward_gemms(dims_, tokens);
    auto attn_fwd = [&]() {
      return cuda_check(attention_forward(a, stream_), "attention forward");
    };
    auto attn_bwd = [&]() {
      return cuda_check(attention_backward(a, stream_), "attention backward");
    };
    // Layer order: qkv, attention, out, gate_up, down; backward in reverse.
    auto forward = [&]() -> Status {
      if (auto st = gemm(fwd_gemms[0]); !st) return st;
      if (auto st = attn_fwd(); !st) return st;
      for (std::size_t i = 1; i < fwd_gemms.size(); ++i)
        if (auto st = gemm(fwd_gemms[i]); !st) return st;
      return {};
    };
    auto backward = [&]() -> Status {
      const std::size_t before_attn = bwd_gemms.size() - 2;  // the qkv GEMMs come last
      for (std::size_t i = 0; i < before_attn; ++i)
        if (auto st = gemm(bwd_gemms[i]); !st) return st;
      if (auto st = attn_bwd(); !st) return st;
      for (std::size_t i = before_attn; i < bwd_gemms.size(); ++i)
        if (auto st = gemm(bwd_gemms[i]); !st) return st;
      return {};
    };
    // The attention backward reads O and lse: run a forward first.
    if (auto st = attn_fwd(); !st) return st.error();
    PackMeasurement m;
    m.shape = shape;
    const std::pair<std::function<Status()>, double*> passes[] = {{attn_fwd, &m.attn_forward_s},
                                                                  {attn_bwd, &m.attn_backward_s},
                                                                  {forward, &m.forward_s},
                                                                  {backward, &m.backward_s}};
    for (const auto& [fn, slot] : passes) {
      auto t = time(fn, warmup, repeats);
      if (!t) return t.error();
      *slot = *t;
    }
    return m;
  }

 private:
  Status gemm(const GemmShape& g) {
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
    const auto m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    return cublas_check(
        cublasGemmEx(handle_, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N,
                     g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &one, gb_.get(), CUDA_R_16BF,
                     g.trans_b ? k : n, ga_.get(), CUDA_R_16BF, g.trans_a ? m : k, &zero, gc_.get(),
                     CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        g.name.c_str());
  }

  Expected<double> time(const std::function<Status()>& fn, int warmup, int repeats) {
    for (int i = 0; i < warmup; ++i)
      if (auto st = fn(); !st) return st.error();
    std::vector<double> samples;
    for (int i = 0; i < repeats; ++i) {
      if (auto st = cuda_check(cudaEventRecord(start_, stream_), "cudaEventRecord"); !st)
        return st.error();
      if (auto st = fn(); !st) return st.error();
      if (auto st = cuda_check(cudaEventRecord(stop_, stream_), "cudaEventRecord"); !st)
        return st.error();
      if (auto st = cuda_check(cudaEventSynchronize(stop_), "kernel execution"); !st)
        return st.error();
      float ms = 0.0f;
      if (auto st = cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
          !st)
        return st.error();
      samples.push_back(ms * 1e-3);
    }
    return median(samples);
  }

  LayerDims dims_;
  BenchLimits limits_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer ga_, gb_, gc_, q_, k_, v_, o_, do_, dq_, dk_, dv_;
  DeviceBuffer lse_, delta_, dq_acc_, dk_acc_, dv_acc_;
};

}  // namespace

Expected<std::unique_ptr<LayerBench>> LayerBench::create(const LayerDims& dims,
                                                         const BenchLimits& limits, int device) {
  if (cuda_device_count() == 0) return Error::internal("no CUDA device available");
  auto bench = std::make_unique<CudaLayerBench>();
  if (auto st = bench->init(dims, limits, device); !st) return st.error();
  return std::unique_ptr<LayerBench>(std::move(bench));
}

}  // namespace slimpack::profiling
