#pragma once
// Where one rank's GPU time went, per profiler step and over the whole trace, in the manner of
// HTA's temporal breakdown, communication-computation overlap, idle-time breakdown and kernel
// launch statistics (docs/file-formats-traces.md, "Summary", states each definition and where it
// differs from HTA's).
//
// All times are unions of intervals over every GPU stream of the rank, never sums: two kernels
// running at once on two streams count once. With C, M and Y the unions of the computation,
// communication and memory operations (trace_gpu.h) and B = C ∪ M ∪ Y, over a window W:
//   computation   = |C ∩ W|
//   communication = |M ∩ W| - |M ∩ C ∩ W|        (communication not hidden under computation)
//   memcpy        = |Y ∩ W| - |Y ∩ (C ∪ M) ∩ W|  (copies and sets under neither)
//   gpu_busy      = |B ∩ W| = computation + communication + memcpy
//   idle          = |W| - gpu_busy
//   overlap       = |C ∩ M ∩ W|                  (communication hidden under computation)
// so the four parts stack up to the window exactly.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/cancel.h"
#include "common/status.h"
#include "trace/trace_import.h"
#include "trace/trace_kernel_table.h"
#include "trace/trace_memory.h"

namespace slimpack {

// The window of the whole trace's figures (`total`).
enum class IdleWindow : std::uint8_t {
  Trace,  // first event start to last event end: the profiler's span
  Gpu,    // first GPU operation start to last end: HTA's kernel_time, so idle is HTA's idle_time
};

struct TraceSummaryOptions {
  // A gap between GPU operations shorter than this, not caused by the host, is "kernel" idle: the
  // cost of launching back-to-back kernels. HTA's consecutive_kernel_delay is documented as 30 ns
  // but applied to timestamps in microseconds, so HTA's kernel wait uses 30 us: so do we.
  double kernel_gap_us = 30.0;
  // Launch outliers counted as HTA's get_cuda_kernel_launch_stats marks them.
  double runtime_cutoff_us = 50.0;
  double launch_delay_cutoff_us = 100.0;
  IdleWindow total_window = IdleWindow::Trace;
  // Names in the kernel tables as HTA's short names (trace_compare.h short_name).
  bool short_names = false;
};

// Kernel launches of the operations that start in the window and whose launch is known (a launch
// flow or a correlation id ties them to their runtime call, trace_launches.h).
struct LaunchStats {
  std::int64_t count = 0;           // operations with a known launch
  std::int64_t by_correlation = 0;  // ... found by args.correlation (no flow reaches them)
  std::int64_t with_cpu_call = 0;   // ... whose runtime call was found (cpu_* below)
  double cpu_us_mean = 0.0;         // runtime call duration (cudaLaunchKernel, ...)
  double cpu_us_max = 0.0;
  double delay_us_mean = 0.0;  // operation start - runtime call end, at least 0
  double delay_us_median = 0.0;
  double delay_us_max = 0.0;
  std::int64_t cpu_over_cutoff = 0;    // calls longer than runtime_cutoff_us
  std::int64_t delay_over_cutoff = 0;  // delays longer than launch_delay_cutoff_us
};

// The figures of one window: a profiler step, or the whole trace.
struct GpuTimeBreakdown {
  std::optional<int> step;  // the ProfilerStep number; empty: the whole trace
  int occurrence = 0;       // of a repeated number: 1, 2, ... (ProfilerStepSpan::occurrence)
  double start_us = 0.0;    // the window
  double span_us = 0.0;
  double gpu_busy_us = 0.0;
  double computation_us = 0.0;
  double communication_us = 0.0;  // exposed: not under computation
  double memcpy_us = 0.0;         // under neither computation nor communication
  double idle_us = 0.0;
  double overlap_us = 0.0;              // communication under computation
  double communication_total_us = 0.0;  // |M ∩ W|: overlap + communication
  double memcpy_total_us = 0.0;         // |Y ∩ W|
  // Idle by cause: the gap ends with an operation launched after the GPU fell idle (the host was
  // late), a gap shorter than kernel_gap_us (back-to-back launch cost), or anything else (waiting
  // on another stream's work, an event, a synchronisation). The three add up to idle_us.
  double idle_host_us = 0.0;
  double idle_kernel_us = 0.0;
  double idle_other_us = 0.0;
  std::int64_t gpu_ops = 0;  // operations starting in the window
  LaunchStats launches;
  KernelTable kernels;  // the operations starting in the window, per name and kind
};

struct TraceSummary {
  std::int64_t gpu_ops = 0;    // 0: the trace has no GPU operation (the figures mean nothing)
  std::int64_t unmatched = 0;  // the trace's unmatched "B"/"E" events (ImportedTrace::unmatched)
  double gpu_first_us = 0.0;   // first GPU operation's start, last one's end
  double gpu_last_us = 0.0;
  // One per ProfilerStep#N span, by N (a number that occurs several times: one per occurrence,
  // in time order, never merged).
  std::vector<GpuTimeBreakdown> steps;
  // The whole trace: first event start to last event end, or with IdleWindow::Gpu from
  // gpu_first_us to gpu_last_us.
  GpuTimeBreakdown total;
  IdleWindow total_window = IdleWindow::Trace;
  // Memory over time ("[memory]" events) per device, over the whole trace and per step (one per
  // `steps`, in that order), and the trace's counters (trace_memory.h).
  TraceMemory memory;
};

// The trace must have been imported with its events kept. Cancellable between steps.
Expected<TraceSummary> summarize_trace(const ImportedTrace& trace,
                                       const TraceSummaryOptions& options = {},
                                       const CancelToken& cancel = CancelToken::none());

}  // namespace slimpack
