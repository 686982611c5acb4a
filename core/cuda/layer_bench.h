#pragma once
// Times one layer's per-GPU work for a pack on the current CUDA device: forward = the four GEMMs
// (cuBLAS bf16, fp32 accumulate) + causal varlen attention; backward = the eight gradient GEMMs +
// attention backward. Each pass is run `warmup` times, then timed `repeats` times with CUDA events;
// the median is kept. Buffers are allocated once for the largest pack and filled with random bf16
// (tensor cores run measurably faster on zeros).
#include <cstdint>
#include <memory>

#include "common/status.h"
#include "cuda/layer_dims.h"
#include "cuda/pack_shapes.h"
#include "cuda/profile_csv.h"

namespace slimpack::profiling {

struct BenchLimits {
  std::int64_t max_tokens = 32768;   // query tokens of a pack
  std::int64_t max_context = 98304;  // K/V rows of a pack (sum of offset + length)
};

class LayerBench {
 public:
  // Errors when there is no device, the head dim is not 128 or memory runs out.
  static Expected<std::unique_ptr<LayerBench>> create(const LayerDims& dims,
                                                      const BenchLimits& limits, int device);
  virtual ~LayerBench() = default;

  // Forward, backward and their attention parts, one layer, medians over `repeats`.
  virtual Expected<PackMeasurement> measure(const PackShape& shape, int warmup, int repeats) = 0;
};

}  // namespace slimpack::profiling
