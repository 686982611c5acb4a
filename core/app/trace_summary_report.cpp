#include "app/trace_summary_report.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <utility>

#include "app/trace_kernel_report.h"
#include "common/parts_progress.h"
#include "trace/trace_gpu.h"
#include "trace/trace_import.h"

namespace slimpack {
namespace {

constexpr const char* kNoGpu =
    "no GPU operation (no complete event of category kernel, gpu_memcpy or gpu_memset): the GPU "
    "time cannot be split";

std::string us(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v == 0.0 ? 0.0 : v);  // no "-0.000"
  return buf;
}

std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

nlohmann::json launches_json(const LaunchStats& s) {
  return {{"count", s.count},
          {"by_correlation", s.by_correlation},
          {"with_cpu_call", s.with_cpu_call},
          {"cpu_us_mean", s.cpu_us_mean},
          {"cpu_us_max", s.cpu_us_max},
          {"delay_us_mean", s.delay_us_mean},
          {"delay_us_median", s.delay_us_median},
          {"delay_us_max", s.delay_us_max},
          {"cpu_over_cutoff", s.cpu_over_cutoff},
          {"delay_over_cutoff", s.delay_over_cutoff}};
}

void breakdown_row(std::string& out, const std::string& label, const GpuTimeBreakdown& b) {
  out += "  " + pad_right(label, 8);
  for (double v : {b.span_us, b.gpu_busy_us, b.computation_us, b.communication_us, b.memcpy_us,
                   b.idle_us, b.overlap_us, b.idle_host_us, b.idle_kernel_us, b.idle_other_us})
    out += " " + pad_left(us(v), 12);
  out += "\n";
}

std::string launches_text(const LaunchStats& s) {
  if (s.count == 0)
    return "no launch found (neither a launch flow nor a correlation id ties a GPU operation to "
           "its runtime call)";
  std::string t = std::to_string(s.count) + " found";
  if (s.by_correlation > 0) t += " (" + std::to_string(s.by_correlation) + " by correlation id)";
  if (s.with_cpu_call > 0)
    t += ", CPU call mean " + us(s.cpu_us_mean) + " max " + us(s.cpu_us_max) + " (" +
         std::to_string(s.cpu_over_cutoff) + " over the cutoff)";
  t += ", launch delay mean " + us(s.delay_us_mean) + " median " + us(s.delay_us_median) + " max " +
       us(s.delay_us_max) + " (" + std::to_string(s.delay_over_cutoff) + " over the cutoff)";
  return t;
}

std::string step_label(int step, int occurrence) {
  return profiler_step_label({.step = step, .occurrence = occurrence});
}

nlohmann::json optional_json(const std::optional<std::int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json memory_window_json(const MemoryWindow& w) {
  return {{"events", w.events},
          {"allocated_start", optional_json(w.allocated_start)},
          {"allocated_end", optional_json(w.allocated_end)},
          {"peak_allocated", optional_json(w.peak_allocated)},
          {"peak_allocated_us",
           w.peak_allocated ? nlohmann::json(w.peak_allocated_us) : nlohmann::json(nullptr)},
          {"peak_reserved", optional_json(w.peak_reserved)},
          {"peak_reserved_us",
           w.peak_reserved ? nlohmann::json(w.peak_reserved_us) : nlohmann::json(nullptr)}};
}

// {"events", "skipped", "dropped", "devices": [{"device", "total": {...}, "steps": [{"step",
// ...}]}]}: per device the figures of trace_memory.h, steps in the order of the rank's steps.
nlohmann::json memory_json(const TraceSummary& s) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DeviceMemory& d : s.memory.devices) {
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t i = 0; i < d.steps.size() && i < s.steps.size(); ++i) {
      nlohmann::json w = {{"step", *s.steps[i].step}};
      w.update(memory_window_json(d.steps[i]));
      if (s.steps[i].occurrence > 0) w["occurrence"] = s.steps[i].occurrence;
      steps.push_back(std::move(w));
    }
    devices.push_back(
        {{"device", d.device}, {"total", memory_window_json(d.total)}, {"steps", steps}});
  }
  return {{"events", s.memory.events},
          {"skipped", s.memory.skipped},
          {"dropped", s.memory.dropped},
          {"devices", devices}};
}

nlohmann::json counters_json(const std::vector<TraceCounterSeries>& counters) {
  nlohmann::json out = nlohmann::json::array();
  for (const TraceCounterSeries& c : counters)
    out.push_back({{"name", c.name},
                   {"series", c.series},
                   {"count", c.count},
                   {"min", c.min},
                   {"max", c.max},
                   {"last", c.last},
                   {"last_us", c.last_us}});
  return out;
}

std::string bytes_text(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : "-";
}

void memory_row(std::string& out, const std::string& label, const std::string& device,
                const MemoryWindow& w) {
  out += "  " + pad_right(label, 8) + " " + pad_right(device, 10) + " " +
         pad_left(std::to_string(w.events), 8);
  for (const auto& v : {w.allocated_start, w.allocated_end, w.peak_allocated})
    out += " " + pad_left(bytes_text(v), 14);
  out += " " + pad_left(w.peak_allocated ? us(w.peak_allocated_us) : "-", 12) + " " +
         pad_left(bytes_text(w.peak_reserved), 14) + "\n";
}

std::string memory_events_text(std::int64_t n) {
  return std::to_string(n) + (n == 1 ? " [memory] event" : " [memory] events");
}

// The rank's memory over time: per device its steps and the whole trace; nothing when the trace
// has no "[memory]" event.
std::string memory_text(const TraceSummary& s) {
  const TraceMemory& m = s.memory;
  if (m.events + m.skipped + m.dropped == 0) return {};
  std::string out = "  memory (bytes, from " + memory_events_text(m.events) + ")\n";
  if (m.skipped > 0)
    out += "  warning: " + memory_events_text(m.skipped) +
           " skipped: no numeric Total Allocated or no ts\n";
  if (m.dropped > 0)
    out += "  warning: " + memory_events_text(m.dropped) +
           " past the import's memory budget: not counted\n";
  if (m.devices.empty()) return out;
  out += "  " + pad_right("step", 8) + " " + pad_right("device", 10) + " " + pad_left("events", 8);
  for (const char* h : {"alloc start", "alloc end", "peak alloc"}) out += " " + pad_left(h, 14);
  out += " " + pad_left("peak at", 12) + " " + pad_left("peak reserved", 14) + "\n";
  for (const DeviceMemory& d : m.devices) {
    for (std::size_t i = 0; i < d.steps.size() && i < s.steps.size(); ++i)
      memory_row(out, step_label(*s.steps[i].step, s.steps[i].occurrence), d.device, d.steps[i]);
    memory_row(out, "total", d.device, d.total);
  }
  return out;
}

std::string counter_value(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v == 0.0 ? 0.0 : v);
  return buf;
}

// The trace's counters ("ph": "C"), one row per name and series.
std::string counters_text(const std::vector<TraceCounterSeries>& counters) {
  if (counters.empty()) return {};
  std::string out = "  counters\n  " + pad_right("name / series", 32) + " " + pad_left("count", 8) +
                    " " + pad_left("min", 14) + " " + pad_left("max", 14) + " " +
                    pad_left("last", 14) + "\n";
  for (const TraceCounterSeries& c : counters)
    out += "  " + pad_right(c.name + " / " + c.series, 32) + " " +
           pad_left(std::to_string(c.count), 8) + " " + pad_left(counter_value(c.min), 14) + " " +
           pad_left(counter_value(c.max), 14) + " " + pad_left(counter_value(c.last), 14) + "\n";
  return out;
}

// The step numbers that occur more than once in a rank's trace, once each.
std::vector<int> repeated_steps(const TraceSummary& s) {
  std::vector<int> out;
  for (const GpuTimeBreakdown& b : s.steps)
    if (b.occurrence == 1) out.push_back(*b.step);
  return out;
}

std::string repeated_steps_note(const std::vector<int>& steps) {
  std::string numbers;
  for (int n : steps) numbers += (numbers.empty() ? "ProfilerStep#" : ", #") + std::to_string(n);
  return numbers + " more than once: each occurrence is a step of its own, numbered (1), (2), ...";
}

// Per step (and occurrence) present in at least two ranks with GPU operations.
std::vector<StragglerStep> straggler_view(const std::vector<RankSummary>& ranks) {
  std::map<std::pair<int, int>, StragglerStep> by_step;
  for (const RankSummary& r : ranks) {
    if (!r.no_gpu.empty()) continue;
    for (const GpuTimeBreakdown& b : r.summary.steps) {
      StragglerStep& s = by_step[{*b.step, b.occurrence}];
      s.step = *b.step;
      s.occurrence = b.occurrence;
      s.ranks.push_back(
          {r.rank, b.span_us, b.computation_us + b.memcpy_us, b.communication_us, b.idle_us});
    }
  }
  std::vector<StragglerStep> out;
  for (auto& [n, s] : by_step) {
    if (s.ranks.size() < 2) continue;
    const auto by_work = [](const StragglerEntry& a, const StragglerEntry& b) {
      return a.work_us < b.work_us;
    };
    // max_element returns the first of equal maxima: ties go to the lowest rank.
    const auto slowest = std::max_element(s.ranks.begin(), s.ranks.end(), by_work);
    const auto fastest = std::min_element(s.ranks.begin(), s.ranks.end(), by_work);
    s.slowest_rank = slowest->rank;
    s.spread_us = slowest->work_us - fastest->work_us;
    out.push_back(std::move(s));
  }
  return out;
}

void lower_to(std::atomic<std::size_t>& value, std::size_t to) {
  std::size_t now = value.load();
  while (to < now && !value.compare_exchange_weak(now, to)) {
  }
}

// The ranks' summaries (by rank) as the run's: `no_gpu` set, the stragglers lined up.
Expected<RunSummary> run_summary_of(std::vector<RankSummary> ranks) {
  RunSummary out;
  std::string missing;
  for (RankSummary& r : ranks) {
    if (r.summary.gpu_ops != 0) continue;
    r.no_gpu = kNoGpu;
    missing += (missing.empty() ? "" : ", ") + r.file;
  }
  if (!ranks.empty() && std::all_of(ranks.begin(), ranks.end(),
                                    [](const RankSummary& r) { return !r.no_gpu.empty(); }))
    return Error::bad_input(missing + ": " + kNoGpu);
  out.ranks = std::move(ranks);
  out.stragglers = straggler_view(out.ranks);
  return out;
}

}  // namespace

Expected<RunSummary> summarize_trace_run(const TraceRun& run, const TraceSummaryOptions& options,
                                         const CancelToken& cancel, ProgressSink& progress,
                                         TaskPool& pool) {
  const std::size_t n = run.ranks.size();
  std::vector<Expected<TraceSummary>> sums(n, Expected<TraceSummary>(Error::cancelled()));
  PartsProgress shared(progress, "summarising", n);
  for_each_index(pool, n, [&](std::size_t i) {
    if (cancel.cancelled()) return;
    const RankTrace& r = run.ranks[i];
    try {
      sums[i] = summarize_trace(*r.trace, options, cancel);
    } catch (const std::bad_alloc&) {
      sums[i] = Error::bad_input(r.path + ": out of memory while summarising the trace");
    }
    if (sums[i]) shared.report(i, 1.0);
  });
  if (cancel.cancelled()) return Error::cancelled();
  std::vector<RankSummary> ranks;
  for (std::size_t i = 0; i < n; ++i) {
    if (!sums[i]) return sums[i].error();
    const RankTrace& r = run.ranks[i];
    ranks.push_back({r.rank, r.path, r.label, {}, std::move(*sums[i])});
  }
  return run_summary_of(std::move(ranks));
}

Expected<RunSummary> summarize_trace_files(const std::vector<std::string>& files,
                                           const TraceSummaryOptions& options,
                                           const CancelToken& cancel, ProgressSink& progress,
                                           TaskPool& pool, std::vector<Error>* unreadable) {
  auto paths = trace_run_files(files);
  if (!paths) return paths.error();
  const std::size_t n = paths->size();
  std::vector<Expected<TraceSummary>> sums(n, Expected<TraceSummary>(Error::cancelled()));
  std::vector<int> info_ranks(n, -1);
  PartsProgress shared(progress, "summarising", n);
  // The lowest index of a file that failed: the result is its error whatever the others give,
  // as in a serial walk, so the files after it need not be read (unless the caller takes the
  // unreadable files apart: then every file is read).
  std::atomic<std::size_t> failed{n};
  for_each_index(pool, n, [&](std::size_t i) {
    if (cancel.cancelled() || (!unreadable && i > failed.load())) return;
    const std::string& path = (*paths)[i];
    // The import is the first 90 % of a rank's share (the summary after it is quick).
    PartProgress sink(shared, i, 0.9);
    try {
      // Only what the summary reads: events and flows, no args text. The trace is dropped at the
      // end of this call, before the worker takes its next file.
      auto trace =
          import_chrome_trace(path, {.keep_events = true, .keep_args = false}, cancel, sink);
      if (trace) {
        info_ranks[i] = trace->rank;
        sums[i] = summarize_trace(*trace, options, cancel);
      } else {
        sums[i] = trace.error();
      }
    } catch (const std::bad_alloc&) {
      sums[i] = Error::bad_input(path + ": out of memory while summarising the trace");
    }
    if (sums[i])
      shared.report(i, 1.0);
    else if (sums[i].error().kind != ErrorKind::Cancelled)
      lower_to(failed, i);
  });
  if (cancel.cancelled()) return Error::cancelled();
  std::vector<RankTrace> order;
  std::vector<int> order_ranks;
  std::vector<TraceSummary> read;
  for (std::size_t i = 0; i < n; ++i) {
    if (!sums[i]) {
      // Left out only while another file can be read: a run of unreadable files is an error.
      if (!unreadable || sums[i].error().kind == ErrorKind::Cancelled) return sums[i].error();
      unreadable->push_back(sums[i].error());
      continue;
    }
    RankTrace r;
    r.path = (*paths)[i];
    r.label = std::filesystem::path(r.path).filename().string();
    order.push_back(std::move(r));
    order_ranks.push_back(info_ranks[i]);
    read.push_back(std::move(*sums[i]));
  }
  if (order.empty()) {
    const Error first = unreadable->front();
    unreadable->clear();
    return first;
  }
  if (Status s = assign_ranks(order, order_ranks); !s) return s.error();
  std::vector<RankSummary> ranks;
  for (std::size_t i = 0; i < order.size(); ++i)
    ranks.push_back({order[i].rank, order[i].path, order[i].label, {}, std::move(read[i])});
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  return run_summary_of(std::move(ranks));
}

nlohmann::json gpu_breakdown_json(const GpuTimeBreakdown& b) {
  nlohmann::json out = {
      {"step", b.step ? nlohmann::json(*b.step) : nlohmann::json(nullptr)},
      {"start_us", b.start_us},
      {"span_us", b.span_us},
      {"gpu_busy_us", b.gpu_busy_us},
      {"computation_us", b.computation_us},
      {"communication_us", b.communication_us},
      {"memcpy_us", b.memcpy_us},
      {"idle_us", b.idle_us},
      {"overlap_us", b.overlap_us},
      {"communication_total_us", b.communication_total_us},
      {"memcpy_total_us", b.memcpy_total_us},
      {"overlap_ratio", b.communication_total_us > 0.0
                            ? nlohmann::json(b.overlap_us / b.communication_total_us)
                            : nlohmann::json(nullptr)},
      {"idle_host_us", b.idle_host_us},
      {"idle_kernel_us", b.idle_kernel_us},
      {"idle_other_us", b.idle_other_us},
      {"gpu_ops", b.gpu_ops},
      {"launches", launches_json(b.launches)},
      {"kernels", kernel_table_json(b.kernels)}};
  if (b.occurrence > 0) out["occurrence"] = b.occurrence;  // only for a repeated step number
  return out;
}

nlohmann::json run_summary_json(const RunSummary& summary) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankSummary& r : summary.ranks) {
    nlohmann::json steps = nlohmann::json::array();
    nlohmann::json entry = {{"rank", r.rank},
                            {"file", r.file},
                            {"gpu_ops", r.summary.gpu_ops},
                            {"unmatched", r.summary.unmatched}};
    if (!r.no_gpu.empty()) {
      entry["error"] = r.no_gpu;
      entry["steps"] = steps;
      entry["total"] = nullptr;
    } else {
      for (const GpuTimeBreakdown& b : r.summary.steps) steps.push_back(gpu_breakdown_json(b));
      entry["steps"] = steps;
      entry["total"] = gpu_breakdown_json(r.summary.total);
      // HTA's kernel_time window: first GPU operation start to last end.
      entry["gpu_first_us"] = r.summary.gpu_first_us;
      entry["gpu_last_us"] = r.summary.gpu_last_us;
      entry["total_window"] = r.summary.total_window == IdleWindow::Gpu ? "gpu" : "trace";
      if (const auto repeated = repeated_steps(r.summary); !repeated.empty())
        entry["repeated_steps"] = repeated;
    }
    entry["memory"] = memory_json(r.summary);
    entry["counters"] = counters_json(r.summary.memory.counters);
    ranks.push_back(std::move(entry));
  }
  nlohmann::json stragglers = nlohmann::json::array();
  for (const StragglerStep& s : summary.stragglers) {
    nlohmann::json rows = nlohmann::json::array();
    for (const StragglerEntry& e : s.ranks)
      rows.push_back({{"rank", e.rank},
                      {"span_us", e.span_us},
                      {"work_us", e.work_us},
                      {"communication_us", e.communication_us},
                      {"idle_us", e.idle_us}});
    stragglers.push_back({{"step", s.step},
                          {"slowest_rank", s.slowest_rank},
                          {"spread_us", s.spread_us},
                          {"ranks", rows}});
    if (s.occurrence > 0) stragglers.back()["occurrence"] = s.occurrence;
  }
  return {{"ranks", ranks}, {"stragglers", stragglers}};
}

std::string run_summary_text(const RunSummary& summary, std::size_t kernels) {
  std::string out;
  const char* heads[] = {"span", "gpu busy", "compute",   "comm",        "memcpy",
                         "idle", "overlap",  "idle host", "idle kernel", "idle other"};
  for (const RankSummary& r : summary.ranks) {
    out += "rank " + std::to_string(r.rank) + "  " + r.file;
    const std::string warning =
        r.summary.unmatched > 0
            ? "  warning: " + unmatched_events_text(r.summary.unmatched) + ": not counted\n"
            : "";
    if (!r.no_gpu.empty()) {
      out += ": " + r.no_gpu + "\n" + warning + memory_text(r.summary) +
             counters_text(r.summary.memory.counters) + "\n";
      continue;
    }
    out += "  (" + std::to_string(r.summary.gpu_ops) + " GPU operations)\n" + warning;
    out += "  " + pad_right("step", 8);
    for (const char* h : heads) out += " " + pad_left(h, 12);
    out += "\n";
    for (const GpuTimeBreakdown& b : r.summary.steps)
      breakdown_row(out, step_label(*b.step, b.occurrence), b);
    if (r.summary.steps.empty()) out += "  (no ProfilerStep#N span: the whole trace only)\n";
    const bool gpu_window = r.summary.total_window == IdleWindow::Gpu;
    breakdown_row(out, "total", r.summary.total);
    if (gpu_window)
      out += "  (total over the GPU window, first GPU operation start to last end, as HTA's)\n";
    out += "  launches: " + launches_text(r.summary.total.launches) + "\n";
    out += kernel_table_text(r.summary.total.kernels, kernels);
    out += memory_text(r.summary);
    out += counters_text(r.summary.memory.counters);
    if (const auto repeated = repeated_steps(r.summary); !repeated.empty())
      out += "  note: " + repeated_steps_note(repeated) + "\n";
    out += "\n";
  }
  out += "times in microseconds; comm = communication not under computation, overlap = under it\n";
  if (!summary.stragglers.empty()) {
    out +=
        "\nstragglers: GPU work (computation + memcpy) per rank and step; the slowest rank has "
        "the most\n";
    std::vector<int> ranks;
    for (const StragglerStep& s : summary.stragglers)
      for (const StragglerEntry& e : s.ranks) ranks.push_back(e.rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    out += "  " + pad_right("step", 8);
    for (int rank : ranks) out += " " + pad_left("rank " + std::to_string(rank), 12);
    out += " " + pad_left("slowest", 8) + " " + pad_left("spread", 12) + "\n";
    for (const StragglerStep& s : summary.stragglers) {
      out += "  " + pad_right(step_label(s.step, s.occurrence), 8);
      for (int rank : ranks) {
        const auto e = std::find_if(s.ranks.begin(), s.ranks.end(),
                                    [rank](const StragglerEntry& x) { return x.rank == rank; });
        out += " " + pad_left(e == s.ranks.end() ? "-" : us(e->work_us), 12);
      }
      out += " " + pad_left(std::to_string(s.slowest_rank), 8) + " " +
             pad_left(us(s.spread_us), 12) + "\n";
    }
  }
  return out;
}

}  // namespace slimpack
