#include "trace/trace_summary.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "trace/trace_gpu.h"

namespace slimpack {
namespace {

// Sorted, disjoint intervals [start, end) with end > start.
using Intervals = std::vector<std::pair<double, double>>;

Intervals merged(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto& [s, e] : v) {
    if (!(e > s)) continue;  // an empty interval covers nothing
    if (!out.empty() && s <= out.back().second)
      out.back().second = std::max(out.back().second, e);
    else
      out.emplace_back(s, e);
  }
  return out;
}

Intervals unite(const Intervals& a, const Intervals& b) {
  Intervals all;
  all.reserve(a.size() + b.size());
  all.insert(all.end(), a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  return merged(std::move(all));
}

Intervals intersect(const Intervals& a, const Intervals& b) {
  Intervals out;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double s = std::max(a[i].first, b[j].first);
    const double e = std::min(a[i].second, b[j].second);
    if (e > s) out.emplace_back(s, e);
    if (a[i].second < b[j].second)
      ++i;
    else
      ++j;
  }
  return out;
}

// |u ∩ [w0, w1)|: from the first interval ending after w0 (ends are sorted too).
double measure(const Intervals& u, double w0, double w1) {
  auto it = std::upper_bound(u.begin(), u.end(), w0,
                             [](double t, const auto& iv) { return t < iv.second; });
  double sum = 0.0;
  for (; it != u.end() && it->first < w1; ++it)
    sum += std::min(it->second, w1) - std::max(it->first, w0);
  return sum;
}

struct Unions {
  Intervals computation, communication, memory, busy, comp_and_comm, comp_or_comm,
      memory_under_others;
  // The gaps of `busy`, from minus to plus infinity, by cause.
  Intervals idle_host, idle_kernel, idle_other;
};

Unions unions_of(const std::vector<GpuOp>& ops, const TraceSummaryOptions& options) {
  Intervals comp, comm, mem;
  for (const GpuOp& op : ops) {
    Intervals& to = op.kind == GpuOpKind::Communication ? comm
                    : op.kind == GpuOpKind::Memory      ? mem
                                                        : comp;
    to.emplace_back(op.start_us, op.end_us);
  }
  Unions u;
  u.computation = merged(std::move(comp));
  u.communication = merged(std::move(comm));
  u.memory = merged(std::move(mem));
  u.comp_and_comm = intersect(u.computation, u.communication);
  u.comp_or_comm = unite(u.computation, u.communication);
  u.memory_under_others = intersect(u.memory, u.comp_or_comm);
  u.busy = unite(u.comp_or_comm, u.memory);

  // Each gap is classified by the operation that ends it: launched after the GPU fell idle, the
  // host was late. The gaps before the first and after the last operation wait on the host too:
  // nothing had been (or was) launched.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double gap_start = -kInf;
  std::size_t k = 0;  // ops are sorted by start
  for (const auto& [s, e] : u.busy) {
    if (gap_start == -kInf) {
      u.idle_host.emplace_back(gap_start, s);
    } else {
      // The earliest launch among the operations that start the busy interval.
      while (k < ops.size() && ops[k].start_us < s) ++k;
      std::optional<double> launch;
      for (std::size_t j = k; j < ops.size() && ops[j].start_us == s; ++j)
        if (ops[j].launch && (!launch || ops[j].launch->start_us < *launch))
          launch = ops[j].launch->start_us;
      if (launch && *launch > gap_start)
        u.idle_host.emplace_back(gap_start, s);
      else if (s - gap_start < options.kernel_gap_us)
        u.idle_kernel.emplace_back(gap_start, s);
      else
        u.idle_other.emplace_back(gap_start, s);
    }
    gap_start = e;
  }
  u.idle_host.emplace_back(u.busy.empty() ? -kInf : gap_start, kInf);
  return u;
}

LaunchStats launch_stats(const std::vector<GpuOp>& ops, std::size_t first, std::size_t last,
                         const TraceSummaryOptions& options) {
  LaunchStats s;
  std::vector<double> delays;
  double cpu_sum = 0.0, delay_sum = 0.0;
  for (std::size_t i = first; i < last; ++i) {
    const GpuOp& op = ops[i];
    if (!op.launch) continue;
    ++s.count;
    if (op.launch->via == LaunchLink::Correlation) ++s.by_correlation;
    double call_end = op.launch->start_us;
    if (op.launch->cpu_dur_us >= 0.0) {
      ++s.with_cpu_call;
      cpu_sum += op.launch->cpu_dur_us;
      s.cpu_us_max = std::max(s.cpu_us_max, op.launch->cpu_dur_us);
      if (op.launch->cpu_dur_us > options.runtime_cutoff_us) ++s.cpu_over_cutoff;
      call_end += op.launch->cpu_dur_us;
    }
    const double delay = std::max(0.0, op.start_us - call_end);
    delays.push_back(delay);
    delay_sum += delay;
    s.delay_us_max = std::max(s.delay_us_max, delay);
    if (delay > options.launch_delay_cutoff_us) ++s.delay_over_cutoff;
  }
  if (s.with_cpu_call > 0) s.cpu_us_mean = cpu_sum / static_cast<double>(s.with_cpu_call);
  if (!delays.empty()) {
    s.delay_us_mean = delay_sum / static_cast<double>(delays.size());
    const std::size_t mid = delays.size() / 2;
    std::nth_element(delays.begin(), delays.begin() + static_cast<std::ptrdiff_t>(mid),
                     delays.end());
    s.delay_us_median = delays[mid];
    if (delays.size() % 2 == 0) {
      const double below =
          *std::max_element(delays.begin(), delays.begin() + static_cast<std::ptrdiff_t>(mid));
      s.delay_us_median = (s.delay_us_median + below) / 2.0;
    }
  }
  return s;
}

// The window [w0, w1) (the whole trace: [w0, w1] with every operation counted).
GpuTimeBreakdown breakdown(const ImportedTrace& trace, const Unions& u,
                           const std::vector<GpuOp>& ops, double w0, double w1, bool whole,
                           const TraceSummaryOptions& options) {
  GpuTimeBreakdown b;
  b.start_us = w0;
  b.span_us = w1 - w0;
  b.computation_us = measure(u.computation, w0, w1);
  b.communication_total_us = measure(u.communication, w0, w1);
  b.overlap_us = measure(u.comp_and_comm, w0, w1);
  b.communication_us = b.communication_total_us - b.overlap_us;
  b.memcpy_total_us = measure(u.memory, w0, w1);
  b.memcpy_us = b.memcpy_total_us - measure(u.memory_under_others, w0, w1);
  b.gpu_busy_us = measure(u.busy, w0, w1);
  b.idle_us = b.span_us - b.gpu_busy_us;
  b.idle_host_us = measure(u.idle_host, w0, w1);
  b.idle_kernel_us = measure(u.idle_kernel, w0, w1);
  b.idle_other_us = measure(u.idle_other, w0, w1);
  const auto by_start = [](const GpuOp& op, double t) { return op.start_us < t; };
  const std::size_t first =
      whole ? 0
            : static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), w0, by_start) -
                                       ops.begin());
  const std::size_t last =
      whole ? ops.size()
            : static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), w1, by_start) -
                                       ops.begin());
  b.gpu_ops = static_cast<std::int64_t>(last - first);
  b.launches = launch_stats(ops, first, last, options);
  b.kernels = kernel_table(trace, ops, first, last, options.short_names);
  return b;
}

}  // namespace

Expected<TraceSummary> summarize_trace(const ImportedTrace& trace,
                                       const TraceSummaryOptions& options,
                                       const CancelToken& cancel) {
  TraceSummary out;
  const std::vector<GpuOp> ops = gpu_ops(trace);
  if (cancel.cancelled()) return Error::cancelled();
  out.gpu_ops = static_cast<std::int64_t>(ops.size());
  out.unmatched = trace.unmatched;
  for (const GpuOp& op : ops) {
    if (&op == &ops.front()) {
      out.gpu_first_us = op.start_us;
      out.gpu_last_us = op.end_us;
    }
    out.gpu_last_us = std::max(out.gpu_last_us, op.end_us);
  }
  const Unions u = unions_of(ops, options);
  if (cancel.cancelled()) return Error::cancelled();

  // The whole trace: first start to last end over every complete event of the rank.
  bool any = false;
  double t0 = 0.0, t1 = 0.0;
  for (const TraceLane& lane : trace.lanes) {
    for (const TraceEvent& e : lane.events) {
      const double end = e.start_us + e.dur_us;
      t0 = any ? std::min(t0, e.start_us) : e.start_us;
      t1 = any ? std::max(t1, end) : end;
      any = true;
    }
  }
  out.total_window = options.total_window;
  if (options.total_window == IdleWindow::Gpu && !ops.empty()) {
    t0 = out.gpu_first_us;
    t1 = out.gpu_last_us;
  }
  out.total = breakdown(trace, u, ops, t0, t1, true, options);

  const std::vector<ProfilerStepSpan> spans = profiler_steps(trace);
  for (const ProfilerStepSpan& step : spans) {
    if (cancel.cancelled()) return Error::cancelled();
    GpuTimeBreakdown b = breakdown(trace, u, ops, step.start_us, step.end_us, false, options);
    b.step = step.step;
    b.occurrence = step.occurrence;
    out.steps.push_back(b);
  }
  out.memory = trace_memory(trace, spans);
  return out;
}

}  // namespace slimpack
