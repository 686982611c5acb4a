// solve(): parameter validation and dispatch to the strategies of docs/design.md section 5.
#include <algorithm>
#include <chrono>
#include <optional>

#include "solver/pack_builder.h"
#include "solver/strategies.h"
#include "solver/strategy.h"

namespace slimpack {
namespace {

using Solver = Expected<SolveResult> (*)(const SolveInput&, const CancelToken&, ProgressSink&);
using Precheck = Status (*)(const SolveInput&);

struct Entry {
  const char* name;
  Solver fn;
  StrategyInfo info;
  Precheck precheck;  // the fit check the solver makes first (strategies.h)
};

// What callers may ask about a strategy without comparing its name (docs/design.md section 5).
constexpr Entry kStrategies[] = {
    {"fixed",
     &solver_detail::solve_fixed,
     {.uses_slices = false, .has_ablations = false, .is_baseline = true},
     &solver_detail::precheck_whole},
    {"balanced",
     &solver_detail::solve_balanced,
     {.uses_slices = false, .has_ablations = false},
     &solver_detail::precheck_whole},
    {"sliced",
     &solver_detail::solve_sliced,
     {.uses_slices = true, .has_ablations = false},
     &solver_detail::precheck_sliced},
    {"slimpack",
     &solver_detail::solve_slimpack,
     {.uses_slices = true, .has_ablations = true, .searches_candidates = true},
     &solver_detail::precheck_slimpack},
};

Status validate(const Entry& entry, const SolveInput& in) {
  const std::string strategy = entry.name;
  const StrategyParams& p = in.params;
  if (in.cost == nullptr) return Error::bad_input("solve: a cost model is required");
  if (in.batch.sequences.empty()) return Error::bad_input("solve: the batch has no sequences");
  for (std::size_t i = 0; i < in.batch.sequences.size(); ++i) {
    if (in.batch.sequences[i].length <= 0)
      return Error::bad_input("batch.sequences[" + std::to_string(i) + "] ('" +
                              in.batch.sequences[i].id + "'): length must be positive");
  }
  const ParallelConfig& par = in.cost->parallel();
  if (par.pp < 1 || par.dp < 1) return Error::bad_input("solve: pp and dp must be at least 1");
  if (p.slice_size < 0) return Error::bad_field("params.slice_size", "must not be negative");
  if (p.packs < 0) return Error::bad_field("params.packs", "must not be negative");
  if (p.pack_tokens < 0) return Error::bad_field("params.pack_tokens", "must not be negative");
  if (p.context < 0) return Error::bad_field("params.context", "must not be negative");
  if (p.context > 0) {
    for (const Sequence& seq : in.batch.sequences) {
      if (seq.length > p.context)
        return Error::bad_field("params.context", "sample '" + seq.id + "' has " +
                                                      std::to_string(seq.length) +
                                                      " tokens, more than the context window of " +
                                                      std::to_string(p.context) + " tokens");
    }
  }
  if (p.vchunks < 1) return Error::bad_field("params.vchunks", "must be at least 1");
  if (!(p.time_limit_s > 0.0)) return Error::bad_field("params.time_limit_s", "must be positive");
  if (entry.info.uses_slices && p.schedule == ScheduleKind::Interleaved)
    return Error::bad_field("params.schedule",
                            "'interleaved' is for unsliced plans (fixed, "
                            "balanced); '" +
                                strategy + "' needs '1f1b' or 'gpipe'");
  return Status::success();
}

}  // namespace

std::vector<Tokens> swept_slice_sizes(Tokens longest) {
  std::vector<Tokens> out;
  for (Tokens s = 512; s < longest && out.size() < 12; s *= 2) out.push_back(s);
  if (out.empty() || out.back() < longest) out.push_back(std::max<Tokens>(longest, 512));
  return out;
}

Tokens context_window(const Batch& batch, const StrategyParams& params) {
  if (params.context > 0) return params.context;
  Tokens longest = 1;
  for (const Sequence& seq : batch.sequences) longest = std::max(longest, seq.length);
  Tokens window = 1;
  while (window < longest) window *= 2;
  return window;
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const Entry& e : kStrategies) names.emplace_back(e.name);
  return names;
}

std::optional<StrategyInfo> strategy_info(const std::string& strategy) {
  for (const Entry& e : kStrategies)
    if (strategy == e.name) return e.info;
  return std::nullopt;
}

namespace {

Expected<const Entry*> find_entry(const std::string& strategy) {
  for (const Entry& e : kStrategies)
    if (strategy == e.name) return &e;
  std::string known;
  for (const Entry& e : kStrategies) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return Error::bad_input("unknown strategy '" + strategy + "' (known: " + known + ")");
}

}  // namespace

Status check_fits(const std::string& strategy, const SolveInput& input) {
  auto entry = find_entry(strategy);
  if (!entry) return entry.error();
  if (Status s = validate(**entry, input); !s) return s;
  return (*entry)->precheck(input);
}

Expected<SolveResult> solve(const std::string& strategy, const SolveInput& input,
                            const CancelToken& cancel, ProgressSink& progress) {
  auto found = find_entry(strategy);
  if (!found) return found.error();
  const Entry* entry = *found;
  if (Status s = validate(*entry, input); !s) return s.error();
  if (cancel.cancelled()) return Error::cancelled();
  const auto start = std::chrono::steady_clock::now();
  Expected<SolveResult> out = entry->fn(input, cancel, progress);
  if (out) out->stats.total_seconds = solver_detail::seconds_since(start);
  return out;
}

}  // namespace slimpack
