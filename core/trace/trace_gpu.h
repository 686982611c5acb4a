#pragma once
// What a PyTorch profiler (Kineto) trace says about its GPU, shared by the per-rank summary
// (trace_summary.h) and the per-step comparison (trace_compare.h):
//  - the GPU operations (kernels, memory copies and sets) and their kind: computation,
//    communication or memory, by category and name as HTA classifies them;
//  - the profiler steps (`ProfilerStep#N` spans) and the profiler's own span
//    (`PyTorch Profiler (N)`);
//  - each GPU operation's launch: the CUDA runtime call on a CPU thread (cudaLaunchKernel,
//    cudaMemcpyAsync, ...) that a launch flow or a shared correlation id ties it to
//    (trace_launches.h).
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
  // 0 when the number occurs once; 1, 2, ... for each occurrence (in time) of a number that occurs
  // more than once (a profiler restarted, two loops numbering their steps alike).
  int occurrence = 0;
  double start_us = 0.0;
  double end_us = 0.0;
};

// The trace's steps: the complete `ProfilerStep#N` events outside `gpu_user_annotation` (the CPU
// ranges). Events of one N that overlap in time (one step recorded on several threads) give one
// span, from the earliest start to the latest end; an event of that N that starts after the span
// so far has ended is another occurrence of the number, a span of its own, never merged with the
// first (which would make one window over the steps between them). Sorted by step number, then
// start.
std::vector<ProfilerStepSpan> profiler_steps(const ImportedTrace& trace);

// "#4", or "#4 (2)" for the second occurrence of a repeated number.
std::string profiler_step_label(const ProfilerStepSpan& span);

// How a launch was found: a flow ("ac2g" or "async_cpu_to_gpu") or args.correlation.
enum class LaunchLink : std::uint8_t { Flow, Correlation };

// The launch of one GPU operation: the CPU runtime call its launch flow starts in, or the runtime
// call of the same correlation id.
struct GpuLaunch {
  double start_us = 0.0;  // the flow's start, or the correlated call's start
  // Duration of the runtime call (by flow: the event holding the flow's start on its CPU thread,
  // cuda_runtime / cuda_driver when one holds it, else the innermost event there); negative when
  // no event does.
  double cpu_dur_us = -1.0;
  LaunchLink via = LaunchLink::Flow;
};

// One GPU operation of the trace.
struct GpuOp {
  double start_us = 0.0;
  double end_us = 0.0;
  std::int32_t lane = 0;   // into ImportedTrace::lanes
  std::int32_t event = 0;  // into that lane's events
  GpuOpKind kind = GpuOpKind::Computation;
  std::optional<GpuLaunch> launch;  // absent when neither a flow nor a correlation gives it
};

// Every GPU operation of the trace, sorted by start (ties: lane, then event), with its launch when
// the trace names it (trace_launches.h): by a launch flow whose end ("f") on a GPU stream lies in
// the operation (start <= ts <= end) and whose start ("s", same id) on a CPU thread is the launch,
// else by a runtime call with the operation's args.correlation.
std::vector<GpuOp> gpu_ops(const ImportedTrace& trace);

}  // namespace slimpack
