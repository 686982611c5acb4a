#include "app/trace_pipeline.h"

#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "app/torch_pp_run.h"
#include "plan/pack_name.h"
#include "trace/chrome_trace.h"
#include "trace/measured_timeline.h"
#include "trace/unit_waits.h"

namespace slimpack {
namespace {

// The run's ranges that match `rules` (message ranges), or nothing when none does.
std::optional<MappedTrace> map_messages(const TraceRun& run, const TraceRunRequest& request,
                                        const Plan& plan, const UnitRuleSet& rules) {
  TraceRunRequest r = request;
  r.rules_json = unit_rules_to_json(rules);
  r.options.gpu_flows = false;  // a wait is host time: its range is when it waited
  auto mapped = map_trace_run(run, r, plan.stages, plan.dp());
  if (!mapped || mapped->units.empty()) return std::nullopt;
  return std::move(*mapped);
}

std::string files_text(const TraceRun& run) {
  if (run.ranks.size() == 1) return run.ranks.front().path;
  return std::to_string(run.ranks.size()) + " trace files (" + run.ranks.front().path + ", ...)";
}

// A run of another plan has no bubbles of this one: a unit of the run that is no unit of the
// plan, or too few of the plan's units in the run (run_plan_mismatch's limit), is an error.
Status check_run_of_plan(const TraceRun& run, const MappedTrace& mapped, const Plan& plan) {
  std::set<std::tuple<int, int, int, int>> found;
  for (const MeasuredUnit& u : mapped.units) {
    const bool replica = u.replica >= 0 && u.replica < plan.dp();
    const std::size_t packs =
        !replica ? 0
        : u.pass == Pass::Forward
            ? plan.replicas[static_cast<std::size_t>(u.replica)].forward.size()
            : plan.replicas[static_cast<std::size_t>(u.replica)].backward.size();
    if (!replica || u.stage < 0 || u.stage >= plan.stages || u.pack < 0 ||
        static_cast<std::size_t>(u.pack) >= packs) {
      const bool known = u.source >= 0 && static_cast<std::size_t>(u.source) < run.ranks.size();
      return Error::bad_input(
          (known ? run.ranks[static_cast<std::size_t>(u.source)].path : files_text(run)) + "#" +
          std::to_string(u.event) + " " + mapped.name_of(u) + ": no " +
          (u.pass == Pass::Forward ? "forward" : "backward") + " pack " +
          pack_name(u.pass, u.pack) + " on stage " + std::to_string(u.stage) + " of replica " +
          std::to_string(u.replica) + " in the plan (" + std::to_string(packs) +
          " packs): not a run of this plan, or the wrong --trace-rules");
    }
    found.insert({u.replica, u.stage, static_cast<int>(u.pass), u.pack});
  }
  std::size_t planned = 0;
  for (const ReplicaPlan& r : plan.replicas)
    planned += static_cast<std::size_t>(plan.stages) * (r.forward.size() + r.backward.size());
  if (static_cast<double>(planned - found.size()) >
      kRunUnmatchedLimit * static_cast<double>(planned))
    return Error::bad_input(files_text(run) + ": " + std::to_string(found.size()) +
                            " of the plan's " + std::to_string(planned) +
                            " units are in the run: not a run of this plan, or the wrong "
                            "--trace-rules");
  return {};
}

}  // namespace

Expected<TracePipeline> trace_pipeline_run(const TraceRun& run, const TraceRunRequest& request,
                                           const Plan& plan, const SimResult& sim,
                                           const CostModel* cost, const CancelToken& cancel) {
  std::vector<UnitGraph> graphs;
  for (int r = 0; r < plan.dp(); ++r) {
    auto g = unit_graph(plan, r, cost);
    if (!g) return g.error();
    graphs.push_back(std::move(*g));
  }
  if (cancel.cancelled()) return Error::cancelled();
  auto mapped = map_plan_run(run, request, plan);  // torch-pp runs checked against the plan
  if (!mapped) return mapped.error();
  if (Status s = check_run_of_plan(run, *mapped, plan); !s) return s.error();
  if (cancel.cancelled()) return Error::cancelled();
  auto receives = map_messages(run, request, plan, receive_rules());
  // PyTorch's runtime waits for a unit's message inside the unit's range (core/trace/unit_waits.h).
  std::string messages = receives ? "receives" : "";
  if (!receives && mapped->rule_set == kTorchPPRules && !request.options.gpu_flows) {
    std::vector<const ImportedTrace*> traces;
    for (const RankTrace& f : run.ranks) traces.push_back(f.trace.get());
    receives = split_leading_waits(traces, *mapped);
    messages = "waits inside units";
  }
  const auto sends = receives ? std::nullopt : map_messages(run, request, plan, send_rules());
  if (sends) messages = "sends";
  TracePipeline out;
  out.rule_set = mapped->rule_set;
  out.units = static_cast<std::int64_t>(mapped->units.size());
  out.messages = messages;
  out.lanes = mapped->lanes;
  out.measured = analyse_bubbles(measured_timeline(
      *mapped, graphs, plan.stages, receives ? &*receives : nullptr, sends ? &*sends : nullptr));
  if (cancel.cancelled()) return Error::cancelled();
  out.simulated = analyse_bubbles(simulated_timeline(sim, graphs, trace_us_per_unit(sim)));
  return out;
}

}  // namespace slimpack
