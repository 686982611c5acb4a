#include "app/trace_pipeline_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/format.h"

namespace slimpack {
namespace {

constexpr BubbleCause kCauses[] = {BubbleCause::Dependency, BubbleCause::Transfer,
                                   BubbleCause::Fill, BubbleCause::Other};

const TimelineUnit& unit_at(const PipelineBubbles& b, std::int32_t i) {
  return b.units[static_cast<std::size_t>(i)];
}

std::string label(const PipelineBubbles& b, std::int32_t i) {
  return unit_label(unit_at(b, i).id);
}

std::string time_text(double us) {
  return bubble_time_text(us);
}

nlohmann::json stage_json(const PipelineBubbles& b, const StageBubbles& s) {
  nlohmann::json causes = nlohmann::json::object();
  for (const BubbleCause c : kCauses) causes[bubble_cause_name(c)] = s.cause_us(c);
  nlohmann::json waits = nlohmann::json::array();
  for (const IdleInterval& w : s.waits) {
    nlohmann::json j = {
        {"cause", bubble_cause_name(w.cause)}, {"start_us", w.start_us}, {"end_us", w.end_us}};
    j["unit"] = w.unit >= 0 ? nlohmann::json(label(b, w.unit)) : nlohmann::json(nullptr);
    if (w.producer >= 0)
      j["producer"] = {{"stage", unit_at(b, w.producer).id.stage}, {"unit", label(b, w.producer)}};
    waits.push_back(std::move(j));
  }
  return {{"replica", s.replica}, {"stage", s.stage},           {"busy_us", s.busy_us},
          {"idle_us", s.idle_us}, {"bubbles_by_cause", causes}, {"waits", std::move(waits)}};
}

nlohmann::json path_json(const PipelineBubbles& b) {
  nlohmann::json path = nlohmann::json::array();
  for (const PathStep& p : b.critical_path) {
    const TimelineUnit& u = unit_at(b, p.unit);
    if (p.message)
      path.push_back({{"kind", "message"},
                      {"replica", u.replica},
                      {"from_stage", unit_at(b, p.from).id.stage},
                      {"to_stage", u.id.stage},
                      {"unit", label(b, p.from)},
                      {"start_us", p.start_us},
                      {"end_us", p.end_us}});
    else
      path.push_back({{"kind", "unit"},
                      {"replica", u.replica},
                      {"stage", u.id.stage},
                      {"unit", label(b, p.unit)},
                      {"start_us", p.start_us},
                      {"end_us", p.end_us}});
  }
  return path;
}

nlohmann::json bubbles_json(const PipelineBubbles& b) {
  nlohmann::json stages = nlohmann::json::array();
  for (const StageBubbles& s : b.stages) stages.push_back(stage_json(b, s));
  return {{"makespan_us", b.makespan_us},
          {"stages", std::move(stages)},
          {"critical_path", path_json(b)}};
}

template <typename... T>
void appendf(std::string& out, const char* format, T... values) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, values...);
  out += buf;
}

void stage_row(std::string& out, const char* stage, const char* run, const StageBubbles& s) {
  appendf(out, "%-7s%-11s%-11s", stage, run, time_text(s.busy_us).c_str());
  for (const BubbleCause c : kCauses) appendf(out, "%-12s", time_text(s.cause_us(c)).c_str());
  appendf(out, "%s\n", time_text(s.idle_us).c_str());
}

const StageBubbles* find_stage(const PipelineBubbles& b, int replica, int stage) {
  for (const StageBubbles& s : b.stages)
    if (s.replica == replica && s.stage == stage) return &s;
  return nullptr;
}

std::string path_summary(const PipelineBubbles& b) {
  double compute = 0.0, messages = 0.0;
  std::size_t units = 0, sends = 0;
  for (const PathStep& p : b.critical_path) {
    (p.message ? messages : compute) += p.end_us - p.start_us;
    ++(p.message ? sends : units);
  }
  double waits = b.makespan_us - compute - messages;
  if (waits < 1e-3) waits = 0.0;  // rounding of the times added up
  return std::to_string(units) + " units, " + std::to_string(sends) + " messages: compute " +
         time_text(compute) + ", messages " + time_text(messages) + ", waits " + time_text(waits);
}

}  // namespace

// Below a nanosecond a time is the rounding of the trace's numbers (a gap between a unit's end
// and the next start that are one time apart): printed as 0, kept as is in the JSON.
std::string bubble_time_text(double us) {
  return format_time(std::abs(us) < 1e-3 ? 0.0 : us * 1e-6);
}

std::string bubble_unit_text(const PipelineBubbles& b, std::int32_t unit) {
  if (unit < 0 || static_cast<std::size_t>(unit) >= b.units.size()) return "-";
  const TimelineUnit& u = unit_at(b, unit);
  std::string s = "stage " + std::to_string(u.id.stage) + " " + unit_label(u.id);
  if (u.replica > 0) s = "replica " + std::to_string(u.replica) + " " + s;
  return s;
}

std::vector<std::string> critical_path_lines(const PipelineBubbles& b) {
  std::vector<std::string> lines;
  const auto& path = b.critical_path;
  for (std::size_t i = 0; i < path.size();) {
    const PathStep& p = path[i];
    const TimelineUnit& u = unit_at(b, p.unit);
    if (p.message) {
      lines.push_back("message " + label(b, p.from) + " stage " +
                      std::to_string(unit_at(b, p.from).id.stage) + " -> " +
                      std::to_string(u.id.stage) + " (" + time_text(p.end_us - p.start_us) + ")");
      ++i;
      continue;
    }
    std::size_t j = i;
    double busy = 0.0;
    while (j < path.size() && !path[j].message && unit_at(b, path[j].unit).id.stage == u.id.stage &&
           unit_at(b, path[j].unit).replica == u.replica) {
      busy += path[j].end_us - path[j].start_us;
      ++j;
    }
    std::string names = label(b, p.unit);
    if (j - i > 1) names += ".." + label(b, path[j - 1].unit);
    lines.push_back((u.replica > 0 ? "replica " + std::to_string(u.replica) + " " : "") + "stage " +
                    std::to_string(u.id.stage) + ": " + names + " (" + std::to_string(j - i) +
                    (j - i == 1 ? " unit, " : " units, ") + time_text(busy) + ")");
    i = j;
  }
  return lines;
}

std::vector<IdleInterval> worst_dependency_waits(const PipelineBubbles& b, std::size_t count) {
  std::vector<IdleInterval> waits;
  for (const StageBubbles& s : b.stages)
    for (const IdleInterval& w : s.waits)
      if (w.cause == BubbleCause::Dependency) waits.push_back(w);
  std::stable_sort(waits.begin(), waits.end(), [](const IdleInterval& x, const IdleInterval& y) {
    return x.duration_us() > y.duration_us();
  });
  if (waits.size() > count) waits.resize(count);
  return waits;
}

nlohmann::json trace_pipeline_json(const TraceRun& run, const TracePipeline& result) {
  nlohmann::json files = nlohmann::json::array();
  for (const RankTrace& f : run.ranks) files.push_back({{"file", f.path}, {"rank", f.rank}});
  nlohmann::json out = bubbles_json(result.measured);
  out["files"] = std::move(files);
  out["rules"] = result.rule_set;
  out["units"] = result.units;
  out["messages"] =
      result.messages.empty() ? nlohmann::json(nullptr) : nlohmann::json(result.messages);
  out["receives_known"] = result.measured.receives_known;
  out["simulated"] = bubbles_json(result.simulated);
  return out;
}

std::string trace_pipeline_text(const TraceRun& run, const TracePipeline& result,
                                std::size_t worst) {
  const PipelineBubbles& m = result.measured;
  const PipelineBubbles& s = result.simulated;
  std::string out;
  appendf(out, "trace pipeline: %zu rank file%s, rules %s, %lld units mapped\n", run.ranks.size(),
          run.ranks.size() == 1 ? "" : "s", result.rule_set.c_str(),
          static_cast<long long>(result.units));
  if (result.messages.empty())
    appendf(out, "messages: no receive or send range in the run: arrivals unknown (no transfer)\n");
  else
    appendf(out, "messages: arrivals known for %lld of %lld messages (from %s)\n",
            static_cast<long long>(m.receives_known), static_cast<long long>(m.messages),
            result.messages == "receives" ? "the receiving stages' wait RECV ranges"
            : result.messages == "sends"  ? "the sending stages' send ranges"
                                          : "each unit's range before its first operator, where "
                                            "PyTorch's runtime waits for the message");
  appendf(out, "makespan: measured %s, simulated %s\n\n", time_text(m.makespan_us).c_str(),
          time_text(s.makespan_us).c_str());
  appendf(out, "%-7s%-11s%-11s%-12s%-12s%-12s%-12s%s\n", "stage", "run", "busy", "dependency",
          "transfer", "fill", "other", "idle");
  const bool replicas = std::any_of(m.stages.begin(), m.stages.end(),
                                    [](const StageBubbles& st) { return st.replica > 0; });
  for (const StageBubbles& st : m.stages) {
    std::string name = std::to_string(st.stage);
    if (replicas) name = "r" + std::to_string(st.replica) + "s" + name;
    stage_row(out, name.c_str(), "measured", st);
    if (const StageBubbles* sim = find_stage(s, st.replica, st.stage))
      stage_row(out, "", "simulated", *sim);
  }
  appendf(out, "(fill: before a stage's first unit and after its last, drain)\n");
  appendf(out, "\ncritical path, measured: %s\n", path_summary(m).c_str());
  for (const std::string& line : critical_path_lines(m)) appendf(out, "  %s\n", line.c_str());
  appendf(out, "critical path, simulated: %s\n", path_summary(s).c_str());
  const auto waits = worst_dependency_waits(m, worst);
  if (!waits.empty()) appendf(out, "\nlongest dependency waits, measured:\n");
  for (const IdleInterval& w : waits)
    appendf(out, "  %s waited %s (from %s) for %s\n", bubble_unit_text(m, w.unit).c_str(),
            time_text(w.duration_us()).c_str(), time_text(w.start_us).c_str(),
            bubble_unit_text(m, w.producer).c_str());
  return out;
}

}  // namespace slimpack
