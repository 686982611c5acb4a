#pragma once
// Owning device allocation and a CUDA-error-to-Error helper for the host code of the profiler.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "common/status.h"

namespace slimpack::profiling {

inline Status cuda_check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return {};
  return Error::internal(std::string(what) + ": " + cudaGetErrorString(e));
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(o.bytes_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);
  }

  // Allocates at least one byte so that empty tensors still get a valid pointer.
  Status allocate(std::size_t bytes, const char* what) {
    if (p_) cudaFree(p_);
    p_ = nullptr;
    bytes_ = bytes;
    return cuda_check(cudaMalloc(&p_, bytes > 0 ? bytes : 1), what);
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(p_);
  }
  void* get() const { return p_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace slimpack::profiling
