#include "trace/trace_gpu.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "trace/trace_launches.h"

namespace slimpack {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

enum class CatClass : std::uint8_t { None, Kernel, Memory };

CatClass category_class(std::string_view cat) {
  if (iequals(cat, "kernel")) return CatClass::Kernel;
  if (iequals(cat, "gpu_memcpy") || iequals(cat, "gpu_memset") || iequals(cat, "memcpy") ||
      iequals(cat, "memset"))
    return CatClass::Memory;
  return CatClass::None;
}

// A kernel's kind from its name (HTA's MemoryKernelGroupingPattern and
// CommunicateKernelGroupingPattern, plus rccl and gloo).
GpuOpKind kernel_kind(std::string_view name) {
  if (starts_with(name, "Memcpy") || starts_with(name, "Memset") ||
      starts_with(name, "hipMemcpy") || starts_with(name, "hipMemset") || starts_with(name, "dma"))
    return GpuOpKind::Memory;
  if (starts_with(name, "nccl") || starts_with(name, "rccl") || starts_with(name, "hccl") ||
      starts_with(name, "gloo") || contains(name, "ncclKernel") || contains(name, "ncclDevKernel"))
    return GpuOpKind::Communication;
  return GpuOpKind::Computation;
}

}  // namespace

const char* gpu_op_kind_name(GpuOpKind kind) {
  switch (kind) {
    case GpuOpKind::Computation:
      return "computation";
    case GpuOpKind::Communication:
      return "communication";
    case GpuOpKind::Memory:
      return "memory";
    case GpuOpKind::None:
      break;
  }
  return "none";
}

GpuOpKind gpu_op_kind(std::string_view category, std::string_view name) {
  switch (category_class(category)) {
    case CatClass::Kernel:
      return kernel_kind(name);
    case CatClass::Memory:
      return GpuOpKind::Memory;
    case CatClass::None:
      break;
  }
  return GpuOpKind::None;
}

std::optional<int> profiler_step_number(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep";
  if (!starts_with(name, kPrefix)) return {};
  std::size_t i = kPrefix.size();
  auto skip_space = [&] {
    while (i < name.size() && std::isspace(static_cast<unsigned char>(name[i]))) ++i;
  };
  skip_space();
  if (i >= name.size() || name[i] != '#') return {};
  ++i;
  skip_space();
  int n = 0;
  const auto res = std::from_chars(name.data() + i, name.data() + name.size(), n);
  if (res.ec != std::errc() || res.ptr != name.data() + name.size() || n < 0) return {};
  if (!std::isdigit(static_cast<unsigned char>(name[i]))) return {};  // no sign
  return n;
}

bool is_profiler_span_name(std::string_view name) {
  constexpr std::string_view kPrefix = "PyTorch Profiler (";
  if (!starts_with(name, kPrefix) || name.size() < kPrefix.size() + 2 || name.back() != ')')
    return false;
  const std::string_view digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - 1);
  return std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::vector<ProfilerStepSpan> profiler_steps(const ImportedTrace& trace) {
  std::vector<std::optional<int>> step_of(trace.names.size());
  std::vector<char> gpu_annotation(trace.names.size(), 0);
  for (std::size_t i = 0; i < trace.names.size(); ++i) {
    step_of[i] = profiler_step_number(trace.names[i]);
    gpu_annotation[i] = trace.names[i] == "gpu_user_annotation";
  }
  std::vector<ProfilerStepSpan> events;  // one per event
  for (const TraceLane& lane : trace.lanes) {
    for (const TraceEvent& e : lane.events) {
      const auto& n = step_of[static_cast<std::size_t>(e.name)];
      if (!n || gpu_annotation[static_cast<std::size_t>(e.cat)]) continue;
      events.push_back({*n, 0, e.start_us, e.start_us + e.dur_us});
    }
  }
  std::sort(events.begin(), events.end(), [](const ProfilerStepSpan& a, const ProfilerStepSpan& b) {
    return a.step != b.step ? a.step < b.step : a.start_us < b.start_us;
  });
  std::vector<ProfilerStepSpan> out;
  for (const ProfilerStepSpan& e : events) {
    const bool same_number = !out.empty() && out.back().step == e.step;
    if (same_number && e.start_us < out.back().end_us) {  // overlaps: the same step
      out.back().end_us = std::max(out.back().end_us, e.end_us);
      continue;
    }
    if (same_number) {  // a repeat: number the occurrences of this step from 1
      if (out.back().occurrence == 0) out.back().occurrence = 1;
      out.push_back(e);
      out.back().occurrence = out[out.size() - 2].occurrence + 1;
      continue;
    }
    out.push_back(e);
  }
  return out;
}

std::string profiler_step_label(const ProfilerStepSpan& span) {
  std::string s = "#" + std::to_string(span.step);
  if (span.occurrence > 0) s += " (" + std::to_string(span.occurrence) + ")";
  return s;
}

std::vector<GpuOp> gpu_ops(const ImportedTrace& trace) {
  // Kinds per interned category and name: a trace has millions of events but few names.
  std::vector<CatClass> cat_class(trace.names.size(), CatClass::None);
  for (std::size_t i = 0; i < trace.names.size(); ++i)
    cat_class[i] = category_class(trace.names[i]);
  std::vector<GpuOpKind> name_kind(trace.names.size(), GpuOpKind::None);
  std::vector<char> name_known(trace.names.size(), 0);

  std::vector<GpuOp> ops;
  for (std::size_t li = 0; li < trace.lanes.size(); ++li) {
    const auto& events = trace.lanes[li].events;
    for (std::size_t ei = 0; ei < events.size(); ++ei) {
      const TraceEvent& e = events[ei];
      const CatClass cc = cat_class[static_cast<std::size_t>(e.cat)];
      if (cc == CatClass::None) continue;
      GpuOpKind kind = GpuOpKind::Memory;
      if (cc == CatClass::Kernel) {
        const auto n = static_cast<std::size_t>(e.name);
        if (!name_known[n]) {
          name_kind[n] = kernel_kind(trace.names[n]);
          name_known[n] = 1;
        }
        kind = name_kind[n];
      }
      GpuOp op;
      op.start_us = e.start_us;
      op.end_us = e.start_us + e.dur_us;
      op.lane = static_cast<std::int32_t>(li);
      op.event = static_cast<std::int32_t>(ei);
      op.kind = kind;
      ops.push_back(op);
    }
  }

  link_launches(trace, ops);  // ops are still per lane, in start order
  std::sort(ops.begin(), ops.end(), [](const GpuOp& a, const GpuOp& b) {
    if (a.start_us != b.start_us) return a.start_us < b.start_us;
    if (a.lane != b.lane) return a.lane < b.lane;
    return a.event < b.event;
  });
  return ops;
}

}  // namespace slimpack
