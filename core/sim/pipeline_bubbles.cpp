#include "sim/pipeline_bubbles.h"

#include <algorithm>
#include <map>
#include <utility>

namespace slimpack {
namespace {

using StageKey = std::pair<int, int>;  // replica, stage

// Times read from a trace carry rounding (a unit's end and the next start a fraction of a
// nanosecond apart): a split point this close to a gap's end is the end.
constexpr double kSnapUs = 1e-3;

double snap(double t, double a, double b) {
  if (t >= b - kSnapUs) return b;
  if (t <= a + kSnapUs) return a;
  return t;
}

class GapClassifier {
 public:
  GapClassifier(const std::vector<TimelineUnit>& units, StageBubbles& out)
      : units_(units), out_(out) {}

  void add(BubbleCause cause, double a, double b, std::int32_t unit, std::int32_t producer = -1) {
    if (!(b > a)) return;
    out_.waits.push_back({cause, a, b, unit, producer});
    out_.by_cause[static_cast<std::size_t>(cause)] += b - a;
  }

  // The gap [a, b) before unit `u` starts, split at its producer's end and its receive's end.
  void interior(double a, double b, std::int32_t u) {
    const TimelineUnit& unit = units_[static_cast<std::size_t>(u)];
    if (unit.producer < 0) {
      add(BubbleCause::Other, a, b, u);
      return;
    }
    const double produced = snap(units_[static_cast<std::size_t>(unit.producer)].end_us, a, b);
    add(BubbleCause::Dependency, a, std::min(b, produced), u, unit.producer);
    double x = std::max(a, produced);
    if (unit.received_us) {
      const double received = snap(*unit.received_us, a, b);
      add(BubbleCause::Transfer, x, std::min(b, received), u, unit.producer);
      x = std::max(x, received);
    }
    add(BubbleCause::Other, x, b, u);
  }

 private:
  const std::vector<TimelineUnit>& units_;
  StageBubbles& out_;
};

// The stage's busy union and its idle pieces within [0, makespan).
void classify_stage(const std::vector<TimelineUnit>& units, std::vector<BusyInterval> busy,
                    double makespan, StageBubbles& out) {
  std::sort(busy.begin(), busy.end(), [](const BusyInterval& a, const BusyInterval& b) {
    return a.start_us != b.start_us ? a.start_us < b.start_us : a.unit < b.unit;
  });
  GapClassifier gaps(units, out);
  double cursor = 0.0;
  bool started = false;
  for (const BusyInterval& iv : busy) {
    const double s = std::clamp(iv.start_us, 0.0, makespan);
    const double e = std::clamp(iv.end_us, 0.0, makespan);
    if (s > cursor) {
      if (started)
        gaps.interior(cursor, s, iv.unit);
      else
        gaps.add(BubbleCause::Fill, cursor, s, iv.unit);
    }
    started = true;
    if (e > cursor) {
      out.busy_us += e - std::max(s, cursor);
      cursor = e;
    }
  }
  gaps.add(BubbleCause::Fill, cursor, makespan, -1);  // drain (the whole window if no unit)
  out.idle_us = makespan - out.busy_us;
}

// Walks back from the unit that ends last to the predecessor that was ready last.
std::vector<PathStep> walk_critical_path(const std::vector<TimelineUnit>& units) {
  std::vector<PathStep> path;
  if (units.empty()) return path;
  std::map<StageKey, std::vector<std::int32_t>> on_stage;
  for (std::size_t i = 0; i < units.size(); ++i)
    on_stage[{units[i].replica, units[i].id.stage}].push_back(static_cast<std::int32_t>(i));
  std::vector<std::int32_t> before(units.size(), -1);  // the unit before it on its stage
  for (auto& [key, list] : on_stage) {
    std::stable_sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
      return units[static_cast<std::size_t>(a)].start_us <
             units[static_cast<std::size_t>(b)].start_us;
    });
    for (std::size_t k = 1; k < list.size(); ++k)
      before[static_cast<std::size_t>(list[k])] = list[k - 1];
  }
  std::int32_t u = 0;
  for (std::size_t i = 1; i < units.size(); ++i)
    if (units[i].end_us >= units[static_cast<std::size_t>(u)].end_us)
      u = static_cast<std::int32_t>(i);
  std::vector<char> seen(units.size(), 0);
  while (u >= 0 && !seen[static_cast<std::size_t>(u)]) {
    seen[static_cast<std::size_t>(u)] = 1;
    const TimelineUnit& unit = units[static_cast<std::size_t>(u)];
    path.push_back({false, u, -1, unit.start_us, unit.end_us});
    const std::int32_t prev = before[static_cast<std::size_t>(u)];
    const std::int32_t from = unit.producer;
    const double prev_ready = prev >= 0 ? units[static_cast<std::size_t>(prev)].end_us : 0.0;
    double message_ready = 0.0;
    if (from >= 0) {
      const double produced = units[static_cast<std::size_t>(from)].end_us;
      message_ready = std::max(produced, unit.received_us.value_or(produced));
    }
    if (from >= 0 && (prev < 0 || message_ready > prev_ready)) {
      path.push_back({true, u, from, units[static_cast<std::size_t>(from)].end_us, message_ready});
      u = from;
    } else {
      u = prev;
    }
  }
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

const char* bubble_cause_name(BubbleCause cause) {
  switch (cause) {
    case BubbleCause::Dependency:
      return "dependency";
    case BubbleCause::Transfer:
      return "transfer";
    case BubbleCause::Fill:
      return "fill";
    case BubbleCause::Other:
      return "other";
  }
  return "other";
}

PipelineBubbles analyse_bubbles(const PipelineTimeline& t) {
  PipelineBubbles out;
  out.origin_us = t.origin_us;
  out.makespan_us = std::max(0.0, t.end_us - t.origin_us);
  out.units = t.units;
  for (TimelineUnit& u : out.units) {
    u.start_us -= t.origin_us;
    u.end_us -= t.origin_us;
    if (u.received_us) *u.received_us -= t.origin_us;
    if (u.producer >= 0) {
      ++out.messages;
      if (u.received_us) ++out.receives_known;
    }
  }
  std::map<StageKey, std::vector<BusyInterval>> busy;
  for (int r = 0; r < t.replicas; ++r)
    for (int s = 0; s < t.stages; ++s) busy[{r, s}];
  for (BusyInterval iv : t.busy) {
    iv.start_us -= t.origin_us;
    iv.end_us -= t.origin_us;
    busy[{iv.replica, iv.stage}].push_back(iv);
  }
  for (auto& [key, intervals] : busy) {
    StageBubbles sb;
    sb.replica = key.first;
    sb.stage = key.second;
    classify_stage(out.units, std::move(intervals), out.makespan_us, sb);
    out.stages.push_back(std::move(sb));
  }
  out.critical_path = walk_critical_path(out.units);
  return out;
}

}  // namespace slimpack
