// Host entry points of attention.h: copy host tensors to the GPU, run the kernels, copy back.
#include <cuda_runtime.h>

#include "cuda/attention.h"
#include "cuda/attention_device.h"
#include "cuda/device_buffer.h"

namespace slimpack::profiling {

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device / no driver" error
    return 0;
  }
  return n;
}

std::string cuda_device_name(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "unknown CUDA device";
  return prop.name;
}

namespace {

constexpr double kLn2 = 0.69314718055994530942;

struct DeviceAttention {
  AttnDeviceArgs args;
  DeviceBuffer segs, fwd_items, bwd_items, q, k, v, out, lse, dout, delta, dq_acc, dk_acc, dv_acc,
      dq, dk, dv, staging;
};

Status upload_ints(DeviceBuffer& buf, const std::vector<int>& host) {
  if (auto st = buf.allocate(host.size() * sizeof(int), "cudaMalloc(work items)"); !st) return st;
  return cuda_check(
      cudaMemcpy(buf.get(), host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice),
      "cudaMemcpy(work items)");
}

// Rounds host floats to bf16 on the device through a float staging buffer.
Status upload_bf16(DeviceAttention& d, DeviceBuffer& dst, const std::vector<float>& host) {
  const std::size_t n = host.size();
  if (auto st = dst.allocate(n * 2, "cudaMalloc(tensor)"); !st) return st;
  if (auto st = d.staging.allocate(n * sizeof(float), "cudaMalloc(staging)"); !st) return st;
  if (auto st = cuda_check(
          cudaMemcpy(d.staging.get(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy(tensor)");
      !st)
    return st;
  return cuda_check(bf16_from_float(dst.get(), d.staging.as<float>(), static_cast<long long>(n), 0),
                    "bf16_from_float");
}

Expected<std::vector<float>> download_bf16(DeviceAttention& d, const DeviceBuffer& src,
                                           std::size_t n) {
  if (auto st = d.staging.allocate(n * sizeof(float), "cudaMalloc(staging)"); !st)
    return st.error();
  if (auto st = cuda_check(
          float_from_bf16(d.staging.as<float>(), src.get(), static_cast<long long>(n), 0),
          "float_from_bf16");
      !st)
    return st.error();
  std::vector<float> host(n);
  if (auto st = cuda_check(
          cudaMemcpy(host.data(), d.staging.get(), n * sizeof(float), cudaMemcpyDeviceToHost),
          "cudaMemcpy(result)");
      !st)
    return st.error();
  return host;
}

Status setup(DeviceAttention& d, const AttnLayout& l, const std::vector<float>& q,
             const std::vector<float>& k, const std::vector<float>& v) {
  if (cuda_device_count() == 0) return Error::internal("no CUDA device available");
  const auto items = make_work_items(l);
  if (auto st = upload_ints(d.segs, items.segments); !st) return st;
  if (auto st = upload_ints(d.fwd_items, items.forward); !st) return st;
  if (auto st = upload_ints(d.bwd_items, items.backward); !st) return st;
  if (auto st = upload_bf16(d, d.q, q); !st) return st;
  if (auto st = upload_bf16(d, d.k, k); !st) return st;
  if (auto st = upload_bf16(d, d.v, v); !st) return st;
  const std::size_t nq = q.size(), nkv = k.size();
  const std::size_t rows = static_cast<std::size_t>(l.total_q) * l.q_heads;
  if (auto st = d.out.allocate(nq * 2, "cudaMalloc(out)"); !st) return st;
  if (auto st = d.lse.allocate(rows * sizeof(float), "cudaMalloc(lse)"); !st) return st;
  auto& a = d.args;
  a.segments = d.segs.as<int>();
  a.forward_items = d.fwd_items.as<int>();
  a.backward_items = d.bwd_items.as<int>();
  a.num_forward_items = static_cast<int>(items.forward.size() / 2);
  a.num_backward_items = static_cast<int>(items.backward.size() / 2);
  a.q_heads = l.q_heads;
  a.kv_heads = l.kv_heads;
  a.total_q = l.total_q;
  a.total_kv = l.total_kv;
  a.q = d.q.get();
  a.k = d.k.get();
  a.v = d.v.get();
  a.out = d.out.get();
  a.lse = d.lse.as<float>();
  (void)nkv;
  return cuda_check(attention_forward(a, 0), "attention_forward");
}

}  // namespace

Expected<AttnForward> attention_forward_device(const AttnLayout& l, const std::vector<float>& q,
                                               const std::vector<float>& k,
                                               const std::vector<float>& v) {
  DeviceAttention d;
  if (auto st = setup(d, l, q, k, v); !st) return st.error();
  if (auto st = cuda_check(cudaDeviceSynchronize(), "attention_forward kernel"); !st)
    return st.error();
  AttnForward r;
  auto out = download_bf16(d, d.out, q.size());
  if (!out) return out.error();
  r.out = std::move(*out);
  r.lse.resize(static_cast<std::size_t>(l.total_q) * l.q_heads);
  if (auto st = cuda_check(cudaMemcpy(r.lse.data(), d.lse.get(), r.lse.size() * sizeof(float),
                                      cudaMemcpyDeviceToHost),
                           "cudaMemcpy(lse)");
      !st)
    return st.error();
  for (float& x : r.lse) x = static_cast<float>(x * kLn2);  // the kernel keeps log2
  return r;
}

Expected<AttnGrads> attention_backward_device(const AttnLayout& l, const std::vector<float>& q,
                                              const std::vector<float>& k,
                                              const std::vector<float>& v,
                                              const std::vector<float>& dout) {
  DeviceAttention d;
  if (auto st = setup(d, l, q, k, v); !st) return st.error();
  if (auto st = upload_bf16(d, d.dout, dout); !st) return st.error();
  const std::size_t nq = q.size(), nkv = k.size();
  const std::size_t rows = static_cast<std::size_t>(l.total_q) * l.q_heads;
  const std::pair<DeviceBuffer*, std::size_t> allocs[] = {
      {&d.delta, rows * 4}, {&d.dq_acc, nq * 4}, {&d.dk_acc, nkv * 4}, {&d.dv_acc, nkv * 4},
      {&d.dq, nq * 2},      {&d.dk, nkv * 2},    {&d.dv, nkv * 2}};
  for (const auto& [buf, bytes] : allocs)
    if (auto st = buf->allocate(bytes, "cudaMalloc(backward)"); !st) return st.error();
  auto& a = d.args;
  a.dout = d.dout.get();
  a.delta = d.delta.as<float>();
  a.dq_acc = d.dq_acc.as<float>();
  a.dk_acc = d.dk_acc.as<float>();
  a.dv_acc = d.dv_acc.as<float>();
  a.dq = d.dq.get();
  a.dk = d.dk.get();
  a.dv = d.dv.get();
  if (auto st = cuda_check(attention_backward(a, 0), "attention_backward"); !st) return st.error();
  if (auto st = cuda_check(cudaDeviceSynchronize(), "attention_backward kernel"); !st)
    return st.error();
  AttnGrads g;
  auto dq = download_bf16(d, d.dq, nq);
  auto dk = download_bf16(d, d.dk, nkv);
  auto dv = download_bf16(d, d.dv, nkv);
  if (!dq) return dq.error();
  if (!dk) return dk.error();
  if (!dv) return dv.error();
  g.dq = std::move(*dq);
  g.dk = std::move(*dk);
  g.dv = std::move(*dv);
  return g;
}

}  // namespace slimpack::profiling
