#pragma once
// `slimpack search` and the explorer's Search tab: which configuration of p x t x c x d, slice
// size, recompute, schedule and strategy trains fastest on the user's dataset within a GPU budget
// (docs/search.md). Every configuration is evaluated on the same K seeded batches; a memory check
// and lower bounds (core/app/search_bounds.h) rule configurations out before any solve, exactly
// (the pruned search has the exhaustive one's front). The loop runs on the workers of a TaskPool
// the caller passes in; core starts no threads.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/scenario.h"
#include "app/search_space.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "common/task_pool.h"

namespace slimpack {

enum class SearchStatus {
  Solved,      // every batch solved and simulated: the figures are set
  Infeasible,  // a batch cannot be placed (or the configuration is not valid): `reason`, `limit`
  Pruned,      // the bounds show it cannot reach the front: not solved
};
const char* search_status_name(SearchStatus status);  // "solved", "infeasible", "pruned"

struct SearchRow {
  int index = 0;  // position in the canonical enumeration of the whole space
  SearchConfig config;
  SearchStatus status = SearchStatus::Pruned;
  std::string reason;                     // Infeasible: the solver's reason
  std::optional<InfeasibleDetail> limit;  // Infeasible: the limit that binds, when one does
  int batch = -1;                         // Infeasible: the batch it failed on
  bool memory_check = false;              // Infeasible found by the memory check, no solve
  // Solved: over the K batches.
  double mean_iteration_time = 0.0;
  double p95_iteration_time = 0.0;
  double tokens_per_second_per_gpu = 0.0;  // all batches' tokens / all iteration times / GPUs
  double peak_memory_bytes = 0.0;          // the largest over the batches
  // The bounds: tokens/s per GPU no plan can exceed, peak memory no plan can go below (of a
  // Pruned row: those after the batches it was ruled out after).
  double bound_tokens_per_second_per_gpu = 0.0;
  double bound_peak_memory_bytes = 0.0;
  // For the bounds of a partial evaluation (partial_bound()): the tokens of the K batches, each
  // batch's bounds, and the simulated figures of the batches solved: all K when Solved, the
  // batches before the failing one when Infeasible, those it was ruled out after when Pruned.
  double tokens = 0.0;
  std::vector<double> batch_bound_times, batch_bound_peaks;
  std::vector<double> batch_times, batch_peaks;
  bool operator==(const SearchRow&) const = default;
};

struct SearchStats {
  int configs = 0;     // in the space (all shards)
  int evaluated = 0;   // rows of this run (this shard)
  int solved = 0;      // rows solved
  int infeasible = 0;  // rows infeasible (memory_checked of them without a solve)
  int memory_checked = 0;
  int pruned = 0;        // rows whose bounds the front dominates
  long long solves = 0;  // strategy solves this run made (batches x configurations)
  int resumed = 0;       // rows taken from an earlier run (SearchRequest::done)
  double seconds = 0.0;  // wall time of this run
};

struct SearchRequest {
  WorkloadSpec workload;
  ConfigSpec base;  // model, GPU, caps, costs; the searched settings come from the space
  SearchSpace space;
  int batches = 8;    // K
  bool prune = true;  // false: solve every configuration (the exhaustive search)
  int shard = 0;      // this run takes the configurations whose index % shards == shard
  int shards = 1;
  // Rows an earlier run of this shard finished (resume): their keys are skipped, and their figures
  // count as evaluated configurations for the bounds.
  std::vector<SearchRow> done;
  // Called with each row this run finishes, one call at a time (a shard file appends it).
  std::function<void(const SearchRow&)> on_row;
};

struct SearchResult {
  SearchSpace space;            // with its automatic lists resolved
  std::vector<SearchRow> rows;  // this run's (all of the space, or one shard), canonical order
  // Positions in `rows`: the Pareto front of tokens/s per GPU against GPUs and peak memory
  // (front), and its two planes (front_gpus: against GPU count only; front_memory: against peak
  // memory only); ranking: the solved rows, most tokens/s per GPU first.
  std::vector<int> front, front_gpus, front_memory, ranking;
  SearchStats stats;
};

// The K batches every configuration is evaluated on: batch k is sampled from the workload's pool
// with seed + k (batch 0 is the one `slimpack simulate` draws). A length file without a batch size
// is one batch (K must be 1).
Expected<std::vector<Batch>> search_batches(const WorkloadSpec& workload, int batches);

Expected<SearchResult> run_search(const SearchRequest& request, TaskPool& pool,
                                  const CancelToken& cancel, ProgressSink& progress);

// From finished rows (one run, or the merged shards): with `pruned`, a row whose bounds a front
// member beats becomes Pruned, solved or not, so the result does not depend on which worker
// finished first or how the space was sharded; then the fronts, the ranking and the counts. The
// bounds are tried in order, before any batch and after each batch the row got through, and the
// first the front beats is the one a Pruned row keeps: the same in every run (docs/search.md).
void finish_search(SearchResult& result, bool pruned);

// True when `a` (solved) beats everything `b`'s bounds allow: at least b's best tokens/s per GPU,
// no more GPUs, no more memory than b's least.
bool dominates_bounds(const SearchRow& a, const SearchRow& b);

// The bounds of `row` once its first `solved` batches are solved (0: before any solve): those
// batches at their simulated figures, the others at their bounds. A row without per-batch figures
// (the memory check decided it, or an older shard file) has its overall bounds only.
struct RowBound {
  double tokens_per_second_per_gpu = 0.0;  // 0: none
  double peak_memory_bytes = 0.0;
};
RowBound partial_bound(const SearchRow& row, std::size_t solved);
// The partial bounds a row has been checked against: 0 to min(batches solved, K - 1).
std::size_t partial_bounds_reached(const SearchRow& row);
bool dominates_bound(const SearchRow& a, const RowBound& b, int b_gpus);

}  // namespace slimpack
