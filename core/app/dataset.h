#pragma once
// `slimpack dataset` and the explorer's Dataset tab: the whole dataset at a glance. A plan is one
// batch; this runs each strategy on every batch of the workload and reports, per strategy, the
// iteration time, peak memory and solver time over the batches (median, p95, max by nearest rank,
// common/percentile.h), the worst batch and the infeasible ones (docs/user-guide.md, "The whole
// dataset"). The batches:
//   - a length file with a batch size: the file cut in file order into consecutive batches
//     (workload/batch_cut.h), all of them unless `batches` limits it; batch i is
//     `simulate --lengths FILE --batch-tokens B --batch-index i`;
//   - a length file without a batch size: the file is one batch;
//   - a preset: K seeded batches (default kDefaultDatasetBatches), batch k the workload at seed + k
//     (pool and batch), the batch `simulate --seed SEED+k` draws.
// Each batch is one comparison (core/app/compare.h: its failure policy, infeasible rows keep their
// reason) run on the caller's TaskPool, a batch per worker at a time; core starts no threads.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/compare.h"
#include "app/scenario.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "common/task_pool.h"

namespace slimpack {

// Seeded batches of a preset when the request does not say how many.
inline constexpr int kDefaultDatasetBatches = 16;

struct DatasetRequest {
  WorkloadSpec workload;  // its batch_index must be -1: the dataset is every batch
  ConfigSpec config;
  // Strategy names or variants (core/app/strategy_variant.h); the first is the baseline. Empty:
  // default_compare_strategies().
  std::vector<std::string> strategies;
  int batches = 0;  // K; 0 = every batch of a file, kDefaultDatasetBatches of a preset
};

// Which batch: a file's index, or a preset's seed.
struct DatasetBatch {
  std::int64_t index = -1;  // a length file cut into batches; -1 for a seeded batch
  std::uint64_t seed = 0;   // the workload seed that draws it (a file's batches share one)
  std::int64_t sequences = 0;
  Tokens tokens = 0;
};

// median, p95 and max over the batches a strategy solved (nearest rank).
struct Spread {
  double median = 0.0;
  double p95 = 0.0;
  double max = 0.0;
};

// One strategy on one batch.
struct DatasetCell {
  RowOutcome outcome = RowOutcome::Solved;
  std::string reason;  // not solved: compare's reason
  double iteration_s = 0.0;
  double peak_memory_bytes = 0.0;  // the largest over the stages
  double solver_s = 0.0;
  bool solved() const { return outcome == RowOutcome::Solved; }
};

struct DatasetStrategy {
  std::string strategy;            // as given ("fixed:cp=2")
  std::vector<DatasetCell> cells;  // one per batch, in DatasetResult::batches' order
  int solved = 0;
  int infeasible = 0;         // cells not solved (infeasible, or a variant not applicable)
  int first_infeasible = -1;  // position in batches of the first, with its reason
  std::string first_reason;
  std::optional<Spread> iteration_s;  // over the solved batches; empty when none solved
  std::optional<Spread> peak_memory_bytes;
  std::optional<Spread> solver_s;
  int worst_batch = -1;  // position in batches of the longest iteration (the first of equals)
  // Median iteration time of the baseline (the first strategy that solved a batch) over this
  // one's; empty when this one solved none.
  std::optional<double> speedup;
  bool baseline = false;
};

struct DatasetResult {
  WorkloadSpec workload;      // as requested
  bool file_batches = false;  // batches are a file's consecutive batches (ids: index)
  int available = 0;          // batches the file has (file_batches), else the batches run
  std::vector<DatasetBatch> batches;
  std::vector<DatasetStrategy> strategies;
  double seconds = 0.0;  // wall time of the run
};

// The workload that draws batch `batch` (a position in result.batches) on its own: what `slimpack
// simulate` takes to show it and what the explorer's Gantt switches to.
WorkloadSpec dataset_batch_workload(const DatasetResult& result, int batch);
// "batch 3" or "seed 45": how a batch is named in tables and the plot.
std::string dataset_batch_name(const DatasetResult& result, int batch);
// The simulate options that select the batch: "--batch-index 3" or "--seed 45".
std::string dataset_batch_option(const DatasetResult& result, int batch);

// The batches the request covers (errors name the option: "batches", "batch index").
Expected<std::vector<Batch>> dataset_batches(const DatasetRequest& request,
                                             std::vector<DatasetBatch>& ids, int& available);

Expected<DatasetResult> run_dataset(const DatasetRequest& request, TaskPool& pool,
                                    const CancelToken& cancel, ProgressSink& progress);

}  // namespace slimpack
