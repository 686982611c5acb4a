#pragma once
// Strategies turn (batch, cost model, parallel config, parameters) into a plan (docs/design.md
// section 5).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"

namespace slimpack {

struct StrategyParams {
  Tokens slice_size = 0;   // S for sliced/slimpack; 0 = strategy default (auto)
  int packs = 0;           // M (forward packs per replica); 0 = auto
  Tokens pack_tokens = 0;  // C for `fixed`: token capacity of a pack; 0 = the context window
  // Context window n_ctx (Megatron --seq-length); 0 = the smallest power of two at or above the
  // longest sample. A sample longer than an explicit window is an error.
  Tokens context = 0;
  ScheduleKind schedule = ScheduleKind::OneFOneB;
  int vchunks = 1;            // interleaved only
  std::uint64_t seed = 1;     // for randomized local search
  double time_limit_s = 2.0;  // exact solvers
  // slimpack ablations and modes (ignored by the baselines)
  bool asymmetric = true;
  bool dp_aware = true;
  bool dp_merge = true;
  bool exact = false;  // MILP phase 2 (needs SLIMPACK_HAVE_MILP)
};

struct SolveStats {
  double total_seconds = 0.0;
  std::vector<std::pair<std::string, double>> phase_seconds;  // named phase timings
  int candidates = 0;                                         // candidate settings simulated
  double objective = 0.0;  // solver objective (e.g. zF + zB) when applicable
  double bound = 0.0;      // lower bound on the objective
  double gap = 0.0;        // (objective - bound) / objective
  bool proven_optimal = false;
  std::string notes;  // free-form details (chosen S, Mf, Mb, w, outliers ...)
  // The candidate a searching strategy (StrategyInfo::searches_candidates) picked, as it labels
  // it (e.g. "S=8192 Mf=12 Mb=14"); empty when the strategy does not search or did not say.
  std::string chosen_candidate;
  // What an automatic choice was compared against (e.g. "S = 512..131072 (9 sizes), packs
  // balanced"); empty when the user fixed what would be chosen.
  std::string compared;
};

struct SolveResult {
  Plan plan;
  SolveStats stats;
};

struct SolveInput {
  Batch batch;
  const CostModel* cost = nullptr;  // required
  StrategyParams params;
};

std::vector<std::string> strategy_names();  // fixed, balanced, sliced, slimpack

// Properties of a registered strategy, so that callers decide by property, not by name.
struct StrategyInfo {
  bool uses_slices = false;    // honours StrategyParams::slice_size (S)
  bool has_ablations = false;  // honours asymmetric / dp_aware / dp_merge
  // Chooses S (and the packs) by simulating candidates; SolveStats::chosen_candidate names the
  // winner, so an automatic S is explained by it.
  bool searches_candidates = false;
  // Fixed-size packing: the reference the paper's speed-ups (and a comparison's defaults) use.
  bool is_baseline = false;
};
// Empty for a name the registry does not know.
std::optional<StrategyInfo> strategy_info(const std::string& strategy);

// The slice sizes an automatic S is chosen among, which the explorer's sweep shows too: powers of
// two from 512 below the longest sequence, then the longest itself (at least 512).
std::vector<Tokens> swept_slice_sizes(Tokens longest);

// The context window a solve uses: params.context, or the smallest power of two at or above the
// longest sample of the batch.
Tokens context_window(const Batch& batch, const StrategyParams& params);
// The memory and token-cap check `strategy` makes before it packs anything (every sequence, placed
// as the strategy places it, fits a stage): when it fails, solve() fails with the same error, so a
// caller can rule a configuration out without a solve (`slimpack search`). BadInput as solve().
Status check_fits(const std::string& strategy, const SolveInput& input);
// Errors: BadInput for an unknown strategy (lists the known ones) or bad params; Infeasible when a
// sequence cannot be placed (names it and the shortfall); Cancelled.
Expected<SolveResult> solve(const std::string& strategy, const SolveInput& input,
                            const CancelToken& cancel = CancelToken::none(),
                            ProgressSink& progress = ProgressSink::none());

}  // namespace slimpack
