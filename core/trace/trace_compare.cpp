#include "trace/trace_compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

#include "trace/trace_gpu.h"

namespace slimpack {
namespace {

struct NameTotals {
  std::int64_t count = 0;
  double total_us = 0.0;
  double self_us = 0.0;
};

using TotalsByName = std::unordered_map<std::string, NameTotals>;

// The selected steps' windows, sorted by start, for the attribution of events to steps.
struct StepWindows {
  std::vector<ProfilerStepSpan> spans;  // by start
  std::vector<double> max_end;          // max_end[i]: the latest end among spans[0..i]
  bool whole = true;                    // no step selection: every event counts

  bool holds(double t) const {
    if (whole) return true;
    auto it = std::upper_bound(spans.begin(), spans.end(), t,
                               [](double x, const ProfilerStepSpan& s) { return x < s.start_us; });
    // Windows normally follow one another (only the last one starting before t can hold it); the
    // running maximum of the ends covers windows that overlap.
    for (auto i = static_cast<std::size_t>(it - spans.begin()); i > 0 && max_end[i - 1] > t; --i)
      if (t < spans[i - 1].end_us) return true;
    return false;
  }
};

std::string steps_text(std::vector<ProfilerStepSpan> steps) {
  if (steps.empty()) return "none";
  steps.erase(std::unique(steps.begin(), steps.end(),
                          [](const ProfilerStepSpan& x, const ProfilerStepSpan& y) {
                            return x.step == y.step;
                          }),
              steps.end());  // a repeated number once
  // Runs of consecutive numbers: "1-3, 7".
  std::string out;
  std::size_t i = 0;
  while (i < steps.size()) {
    std::size_t j = i;
    while (j + 1 < steps.size() && steps[j + 1].step == steps[j].step + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(steps[i].step);
    if (j > i) out += "-" + std::to_string(steps[j].step);
    i = j + 1;
  }
  return out;
}

Expected<StepWindows> step_windows(const ImportedTrace& trace, const TraceCompareOptions& options) {
  StepWindows w;
  if (!options.steps) return w;
  w.whole = false;
  const std::vector<ProfilerStepSpan> all = profiler_steps(trace);
  const StepRange& r = *options.steps;
  for (const ProfilerStepSpan& s : all)
    if ((!r.first || s.step >= *r.first) && (!r.last || s.step <= *r.last)) w.spans.push_back(s);
  if (w.spans.empty()) {
    if (all.empty())
      return Error::bad_input(trace.source +
                              ": no ProfilerStep#N span: --steps needs a trace recorded with "
                              "profiler steps (prof.step())");
    const std::string which = !r.first              ? "step"
                              : *r.first == *r.last ? "ProfilerStep#" + std::to_string(*r.first)
                                                    : "step in " + step_range_text(r);
    return Error::bad_input(trace.source + ": no " + which + " (its steps: " + steps_text(all) +
                            ")");
  }
  std::sort(
      w.spans.begin(), w.spans.end(),
      [](const ProfilerStepSpan& x, const ProfilerStepSpan& y) { return x.start_us < y.start_us; });
  for (const ProfilerStepSpan& s : w.spans)
    w.max_end.push_back(w.max_end.empty() ? s.end_us : std::max(w.max_end.back(), s.end_us));
  return w;
}

// Sums one trace's complete events by (normalised) name, with each event's self time. Work is
// per distinct interned name, not per event, for the name keys and the filters.
Expected<TotalsByName> totals_by_name(const ImportedTrace& trace,
                                      const TraceCompareOptions& options, TraceCompareSide& side) {
  auto windows = step_windows(trace, options);
  if (!windows) return windows.error();
  const std::size_t n = trace.names.size();
  std::vector<char> category_ok(n, 1);
  std::vector<char> name_ok(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    if (!options.category.empty()) category_ok[i] = trace.names[i] == options.category;
    if (!options.include_profiler_span) name_ok[i] = !is_profiler_span_name(trace.names[i]);
  }
  // GPU operations belong to the step their launch falls in (as HTA assigns iterations), when an
  // ac2g flow names the launch; every other event to the step it starts in.
  std::vector<std::vector<double>> launch_at(trace.lanes.size());
  if (!windows->whole) {
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    for (const GpuOp& op : gpu_ops(trace)) {
      if (!op.launch) continue;
      auto& lane = launch_at[static_cast<std::size_t>(op.lane)];
      if (lane.empty())
        lane.assign(trace.lanes[static_cast<std::size_t>(op.lane)].events.size(), kNone);
      lane[static_cast<std::size_t>(op.event)] = op.launch->start_us;
    }
  }

  std::vector<NameTotals> by_index(n);
  struct Open {
    double end;
    std::size_t event;
    double self;
  };
  std::vector<Open> stack;
  for (std::size_t li = 0; li < trace.lanes.size(); ++li) {
    const auto& events = trace.lanes[li].events;
    const auto& launches = launch_at[li];
    const auto finish = [&](const Open& o) {
      const TraceEvent& e = events[o.event];
      if (!category_ok[static_cast<std::size_t>(e.cat)] ||
          !name_ok[static_cast<std::size_t>(e.name)])
        return;
      const double at =
          launches.empty() || std::isnan(launches[o.event]) ? e.start_us : launches[o.event];
      if (!windows->holds(at)) return;
      NameTotals& t = by_index[static_cast<std::size_t>(e.name)];
      ++t.count;
      t.total_us += e.dur_us;
      t.self_us += o.self;
    };
    // Events are sorted by start, parents before their children: a stack of the open ones gives
    // each event its parent, whose self time loses the child's time. A child that outlives its
    // parent is clipped to the parent's end, for its own self time too: a range's self time and
    // its descendants' never add up to more than its duration, and what follows the parent's end
    // is not nested in the child.
    stack.clear();
    for (std::size_t ei = 0; ei < events.size(); ++ei) {
      const TraceEvent& e = events[ei];
      while (!stack.empty() && stack.back().end <= e.start_us) {
        finish(stack.back());
        stack.pop_back();
      }
      double end = e.start_us + e.dur_us;
      if (!stack.empty()) {
        end = std::min(end, stack.back().end);
        stack.back().self -= end - e.start_us;
      }
      stack.push_back({end, ei, end - e.start_us});
    }
    while (!stack.empty()) {
      finish(stack.back());
      stack.pop_back();
    }
  }

  std::vector<std::string> key_of(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (by_index[i].count == 0) continue;
    std::string key = options.short_names ? short_name(trace.names[i]) : trace.names[i];
    key_of[i] = options.fold_digits ? fold_digits(key) : std::move(key);
  }
  TotalsByName totals;
  for (std::size_t i = 0; i < n; ++i) {
    if (by_index[i].count == 0) continue;
    NameTotals& t = totals[key_of[i]];
    t.count += by_index[i].count;
    t.total_us += by_index[i].total_us;
    t.self_us += by_index[i].self_us;
    side.counted += by_index[i].count;
    side.total_us += by_index[i].total_us;
    side.self_us += by_index[i].self_us;
  }
  side.source = trace.source;
  side.events = trace.events;
  side.names = static_cast<std::int64_t>(totals.size());
  side.lanes = static_cast<std::int64_t>(trace.lanes.size());
  side.unmatched = trace.unmatched;
  side.span_us = trace.span_us;
  if (!windows->whole) {
    for (const ProfilerStepSpan& s : windows->spans) {
      side.steps.push_back(s.step);
      if (s.occurrence == 1) side.repeated_steps.push_back(s.step);
    }
    std::sort(side.steps.begin(), side.steps.end());
    std::sort(side.repeated_steps.begin(), side.repeated_steps.end());
    const double k = static_cast<double>(side.steps.size());
    side.total_us /= k;
    side.self_us /= k;
    for (auto& [name, t] : totals) {
      t.total_us /= k;
      t.self_us /= k;
    }
  }
  return totals;
}

NameDiffStatus status_of(const NameDiff& d, CompareTime by, double tolerance) {
  if (d.count_a == 0) return NameDiffStatus::Added;
  if (d.count_b == 0) return NameDiffStatus::Removed;
  const double a = by == CompareTime::Self ? d.self_us_a : d.total_us_a;
  const double b = by == CompareTime::Self ? d.self_us_b : d.total_us_b;
  const double delta = b - a;
  const double larger = std::max(std::abs(a), std::abs(b));
  if (std::abs(delta) <= tolerance * larger) return NameDiffStatus::Unchanged;
  return delta > 0.0 ? NameDiffStatus::Longer : NameDiffStatus::Shorter;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + (s.empty() ? "\"\"" : s);
  return out.empty() ? "none" : out;
}

}  // namespace

const char* name_diff_status_name(NameDiffStatus s) {
  switch (s) {
    case NameDiffStatus::Added:
      return "added";
    case NameDiffStatus::Removed:
      return "removed";
    case NameDiffStatus::Longer:
      return "longer";
    case NameDiffStatus::Shorter:
      return "shorter";
    case NameDiffStatus::Unchanged:
      return "unchanged";
  }
  return "unchanged";
}

Expected<StepRange> parse_step_range(const std::string& text) {
  if (text == "all") return StepRange{};
  const auto number = [](std::string_view s) -> std::optional<int> {
    int v = 0;
    if (s.empty() || s[0] < '0' || s[0] > '9') return {};
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return {};
    return v;
  };
  const std::string_view t(text);
  const std::size_t dash = t.find('-');
  const auto first = number(t.substr(0, dash));
  const auto last = dash == std::string_view::npos ? first : number(t.substr(dash + 1));
  if (!first || !last)
    return Error::bad_input("--steps '" + text +
                            "': expected all, a step number N or a range A-B of step numbers");
  if (*first > *last)
    return Error::bad_input("--steps '" + text + "': the range ends before it starts");
  return StepRange{first, last};
}

std::string step_range_text(const StepRange& r) {
  if (!r.first) return "all";
  if (*r.first == *r.last) return std::to_string(*r.first);
  return std::to_string(*r.first) + "-" + std::to_string(*r.last);
}

std::string fold_digits(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  bool in_digits = false;
  for (const char c : name) {
    const bool digit = c >= '0' && c <= '9';
    if (digit && !in_digits) out += 'N';
    if (!digit) out += c;
    in_digits = digit;
  }
  return out;
}

std::string short_name(const std::string& name) {
  if (gpu_op_kind("kernel", name) == GpuOpKind::Memory) return name;  // Memcpy..., Memset...
  if (name.find('<') == std::string::npos && name.find('(') == std::string::npos) return name;
  std::string s;
  s.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '-' && i + 1 < name.size() && name[i + 1] == '>') {
      ++i;  // "->" dropped
      continue;
    }
    s += name[i];
  }
  std::string stack;
  for (const char c : s) {
    if (c == '>' || c == ')') {
      const char open = c == '>' ? '<' : '(';
      while (!stack.empty() && stack.back() != open) stack.pop_back();
      if (!stack.empty()) stack.pop_back();
    } else {
      stack += c;
    }
  }
  while (!stack.empty() && stack.back() == ' ') stack.pop_back();
  const std::size_t space = stack.rfind(' ');
  std::string out = space == std::string::npos ? stack : stack.substr(space + 1);
  return out.empty() ? name : out;
}

std::vector<std::string> event_categories(const ImportedTrace& trace) {
  std::vector<char> used(trace.names.size(), 0);
  for (const TraceLane& lane : trace.lanes)
    for (const TraceEvent& e : lane.events) used[static_cast<std::size_t>(e.cat)] = 1;
  std::set<std::string> cats;
  for (std::size_t i = 0; i < used.size(); ++i)
    if (used[i]) cats.insert(trace.names[i]);
  return {cats.begin(), cats.end()};
}

Status check_compare_category(const ImportedTrace& a, const ImportedTrace& b,
                              const std::string& category) {
  if (category.empty()) return {};
  const auto in_a = event_categories(a);
  const auto in_b = event_categories(b);
  const bool a_has = std::binary_search(in_a.begin(), in_a.end(), category);
  const bool b_has = std::binary_search(in_b.begin(), in_b.end(), category);
  if (a_has && b_has) return {};
  const std::string where = !a_has && !b_has ? "A nor B" : !a_has ? "A" : "B";
  return Error::bad_input("--category " + category + ": no complete event of this category in " +
                          where + " (categories of A, " + a.source + ": " + join(in_a) +
                          "; of B, " + b.source + ": " + join(in_b) + ")");
}

Expected<TraceComparison> compare_traces(const ImportedTrace& a, const ImportedTrace& b,
                                         const TraceCompareOptions& options) {
  TraceComparison result;
  auto in_a = totals_by_name(a, options, result.a);
  if (!in_a) return in_a.error();
  auto in_b = totals_by_name(b, options, result.b);
  if (!in_b) return in_b.error();
  if (options.steps) {
    const double ka = static_cast<double>(result.a.steps.size());
    const double kb = static_cast<double>(result.b.steps.size());
    if (ka != kb)
      result.note = "A has " + std::to_string(result.a.steps.size()) + " steps in " +
                    step_range_text(*options.steps) + ", B has " +
                    std::to_string(result.b.steps.size()) + ": means per step";
    for (const TraceCompareSide* side : {&result.a, &result.b}) {
      if (side->repeated_steps.empty()) continue;
      std::string numbers;
      for (int n : side->repeated_steps)
        numbers += (numbers.empty() ? "ProfilerStep#" : ", #") + std::to_string(n);
      result.note += (result.note.empty() ? "" : "; ") +
                     std::string(side == &result.a ? "A" : "B") + " has " + numbers +
                     " more than once: each occurrence is a step of its own";
    }
  }
  const double ka = options.steps ? static_cast<double>(result.a.steps.size()) : 1.0;
  const double kb = options.steps ? static_cast<double>(result.b.steps.size()) : 1.0;
  result.names.reserve(in_a->size() + in_b->size());
  for (const auto& [name, t] : *in_a) {
    NameDiff d;
    d.name = name;
    d.count_a = static_cast<double>(t.count) / ka;
    d.total_us_a = t.total_us;
    d.self_us_a = t.self_us;
    if (auto it = in_b->find(name); it != in_b->end()) {
      d.count_b = static_cast<double>(it->second.count) / kb;
      d.total_us_b = it->second.total_us;
      d.self_us_b = it->second.self_us;
    }
    result.names.push_back(std::move(d));
  }
  for (const auto& [name, t] : *in_b) {
    if (in_a->count(name) != 0) continue;
    NameDiff d;
    d.name = name;
    d.count_b = static_cast<double>(t.count) / kb;
    d.total_us_b = t.total_us;
    d.self_us_b = t.self_us;
    result.names.push_back(std::move(d));
  }
  for (NameDiff& d : result.names) {
    d.delta_us = d.total_us_b - d.total_us_a;
    d.delta_self_us = d.self_us_b - d.self_us_a;
    d.status = status_of(d, options.by, options.tolerance);
  }
  const bool self = options.by == CompareTime::Self;
  std::sort(result.names.begin(), result.names.end(), [self](const NameDiff& x, const NameDiff& y) {
    const double ax = std::abs(self ? x.delta_self_us : x.delta_us);
    const double ay = std::abs(self ? y.delta_self_us : y.delta_us);
    return ax != ay ? ax > ay : x.name < y.name;
  });
  return result;
}

}  // namespace slimpack
