#pragma once
// Which CPU runtime call (cudaLaunchKernel, cudaMemcpyAsync, ...) launched each GPU operation,
// whichever way the trace says it:
//  - a flow from the call to the operation, of category "ac2g" (Kineto) or "async_cpu_to_gpu"
//    (older Kineto): its start ("s") on the CPU thread, its end ("f", same id) on the stream,
//    inside the operation;
//  - the same `args.correlation` on the call and on the operation (CUPTI's id, which Kineto
//    writes on both and HTA joins on), for the operations no flow reaches.
#include <string_view>
#include <vector>

#include "trace/trace_gpu.h"
#include "trace/trace_import.h"

namespace slimpack {

// Whether a flow of this category links a launch to its GPU operation.
bool is_launch_flow_category(std::string_view category);
// Whether an event of this category is a runtime or driver call ("cuda_runtime", "cuda_driver",
// HIP's "hip_runtime", torch 1.x's "Runtime"; case-insensitive).
bool is_runtime_category(std::string_view category);

// Sets `launch` of every operation of `ops` (each lane's operations together, in start order, as
// gpu_ops collects them) that the trace links to its launch: by flow first, then by correlation.
void link_launches(const ImportedTrace& trace, std::vector<GpuOp>& ops);

}  // namespace slimpack
