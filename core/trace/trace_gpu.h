#pragma once
// What a PyTorch profiler (Kineto) trace says about its GPU, shared by the per-rank summary
// (trace_summary.h) and the per-step comparison (trace_compare.h):
//  - the GPU operations (kernels, memory copies and sets) and their kind: computation,
//    communication or memory, by category and name as HTA classifies them;
//  - the profiler steps (`ProfilerStep#N` spans) and the profiler's own span
//    (`PyTorch Profiler (N)`);
//  - each GPU operation's launch, found by following its Kineto "ac2g" flow back to the CUDA
//    runtime call on a CPU thread (cudaLaunchKernel, cudaMemcpyAsync, ...).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_import.h"

namespace slimpack {

enum class GpuOpKind : std::uint8_t { None, Computation, Communication, Memory };
const char* gpu_op_kind_name(GpuOpKind kind);  // "computation", "communication", "memory"

// The kind of a complete event from its category and name; None for anything that is not a GPU
// operation. GPU operations are the categories `kernel`, `gpu_memcpy` and `gpu_memset` (and the
// legacy profiler's `Kernel`, `Memcpy`, `Memset`; case-insensitive). Memory: the memcpy/memset
// categories, or a kernel named like HTA's memory pattern (`Memcpy...`, `Memset...`, `dma...`).
// Communication: a kernel whose name starts with `nccl`, `rccl`, `hccl` or `gloo`, or contains
// `ncclKernel`/`ncclDevKernel` (HTA: `^nccl`, `^hccl`, `ncclKernel`). Every other kernel is
// computation. `gpu_user_annotation` (Kineto's copy of a record_function range on its stream) and
// `cuda_sync` are not operations: None.
GpuOpKind gpu_op_kind(std::string_view category, std::string_view name);

// Step number of a `ProfilerStep#N` name (HTA's pattern `ProfilerStep\s*#\s*(\d+)`, the whole
// name), else nullopt.
std::optional<int> profiler_step_number(std::string_view name);
// Whether the name is the profiler's own span, `PyTorch Profiler (N)`.
bool is_profiler_span_name(std::string_view name);

struct ProfilerStepSpan {
  int step = 0;
  double start_us = 0.0;
  double end_us = 0.0;
};

// The trace's steps: every complete `ProfilerStep#N` event outside `gpu_user_annotation` (the CPU
// range); several events of one N (several threads) give one span from the earliest start to the
// latest end. Sorted by step number.
std::vector<ProfilerStepSpan> profiler_steps(const ImportedTrace& trace);

// The launch of one GPU operation: the CPU runtime call its ac2g flow starts in.
struct GpuLaunch {
  double start_us = 0.0;  // the flow's start (the runtime call's start)
  // Duration of the runtime call holding the flow's start on its CPU thread (cuda_runtime /
  // cuda_driver when one holds it, else the innermost event there); negative when no event does.
  double cpu_dur_us = -1.0;
};

// One GPU operation of the trace.
struct GpuOp {
  double start_us = 0.0;
  double end_us = 0.0;
  std::int32_t lane = 0;   // into ImportedTrace::lanes
  std::int32_t event = 0;  // into that lane's events
  GpuOpKind kind = GpuOpKind::Computation;
  std::optional<GpuLaunch> launch;  // absent when no ac2g flow leads to it
};

// Every GPU operation of the trace, sorted by start (ties: lane, then event), with its launch when
// the trace's ac2g flows name it: a flow's end ("f") on a GPU stream lies in the operation
// (start <= ts <= end), its start ("s", same id) on a CPU thread is the launch.
std::vector<GpuOp> gpu_ops(const ImportedTrace& trace);

}  // namespace slimpack
