#pragma once
// Several strategies (or variants, core/app/strategy_variant.h) on one batch and configuration:
// `slimpack compare` and the explorer's compare view. One failure policy for both: a strategy
// that cannot place the batch (Infeasible) and a variant that does not fit the GPU count (not
// applicable) are rows with their reason; a cancellation cancels the comparison; any other
// failure (bad parameters, a bug) fails the comparison, naming the strategy.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/scenario.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "render/gantt_model.h"
#include "sim/sim_result.h"
#include "sim/simulator.h"

namespace slimpack {

enum class RowOutcome { Solved, Infeasible, NotApplicable };

struct CompareEntry {
  std::string strategy;       // as given: "fixed", "fixed:cp=2"
  std::string strategy_name;  // the registry's name: "fixed"
  ConfigSpec config;          // the variant's configuration (p * t * c * d of the base)
  RowOutcome outcome = RowOutcome::Solved;
  // Infeasible: the solver's reason, without a "strategy NAME: " prefix;
  // NotApplicable: "not applicable: needs ...".
  std::string reason;
  // Infeasible: the limit that binds (stage, bytes or tokens), when one does.
  std::optional<InfeasibleDetail> limit;
  // Set when solved. Shared and immutable: the compare view, its table and the exporter all hold
  // the entries, and a deep copy of a large SimResult costs the GUI thread milliseconds.
  std::shared_ptr<const Plan> plan;
  std::shared_ptr<const SimResult> sim;
  std::shared_ptr<const GanttModel> gantt;  // when CompareRequest::build_timelines
  std::shared_ptr<const CostModel> cost;
  double solver_seconds = 0.0;
  // Iteration time of the baseline (the first row that solved) over this row's; empty when this
  // row did not solve or a time is zero.
  std::optional<double> speedup;
  bool baseline = false;
  std::vector<double> stage_peak_memory_bytes;  // stage_peak_memory(*sim)

  bool solved() const { return outcome == RowOutcome::Solved; }
};

struct CompareRequest {
  Batch batch;
  ConfigSpec config;
  std::uint64_t seed = 1;
  // Strategy names or variants "NAME:key=value" (parse errors are BadInput naming the text).
  std::vector<std::string> strategies;
  SimOptions sim;
  bool build_timelines = true;
};

// Sets speedup and baseline: over the first row that solved (run_compare calls it).
void set_compare_speedups(std::vector<CompareEntry>& rows);

// The strategies `slimpack compare` runs when none are named.
std::vector<std::string> default_compare_strategies();

Expected<std::vector<CompareEntry>> run_compare(const CompareRequest& request,
                                                const CancelToken& cancel, ProgressSink& progress);

}  // namespace slimpack
