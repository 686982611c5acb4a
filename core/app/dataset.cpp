#include "app/dataset.h"

#include <chrono>
#include <exception>
#include <mutex>
#include <new>

#include "app/strategy_variant.h"
#include "common/parts_progress.h"
#include "common/percentile.h"
#include "workload/batch_cut.h"

namespace slimpack {
namespace {

std::string batches_word(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " batch" : " batches");
}

// A file's consecutive batches: all of them, or the first `request.batches`.
Expected<std::vector<Batch>> file_batches(const DatasetRequest& request,
                                          std::vector<DatasetBatch>& ids, int& available) {
  const WorkloadSpec& w = request.workload;
  auto pool = load_pool(w);
  if (!pool) return pool.error();
  BatchSpec size;
  size.token_budget = w.batch_tokens;
  size.count = w.batch_tokens > 0 ? 0 : w.batch_count;
  auto ranges = cut_pool(**pool, size);
  if (!ranges) return ranges.error();
  available = static_cast<int>(ranges->size());
  const bool whole = w.batch_tokens == 0 && w.batch_count == 0;
  if (request.batches > available)
    return Error::bad_field(
        "batches", whole ? "a length file without a batch size is one batch; give a batch size "
                           "to cut it into more, got " +
                               std::to_string(request.batches)
                         : "the file has " + batches_word(ranges->size()) + " of this size, got " +
                               std::to_string(request.batches));
  const int k = request.batches > 0 ? request.batches : available;
  std::vector<Batch> out;
  for (int i = 0; i < k; ++i) {
    out.push_back(batch_of_range(**pool, (*ranges)[static_cast<std::size_t>(i)]));
    ids.push_back({i, w.seed, static_cast<std::int64_t>(out.back().sequences.size()),
                   out.back().total_tokens()});
  }
  return out;
}

// What one worker makes of one batch: compare's rows as cells (the plans are dropped at once).
std::vector<DatasetCell> cells_of(const std::vector<CompareEntry>& rows) {
  std::vector<DatasetCell> out;
  for (const CompareEntry& e : rows) {
    DatasetCell c;
    c.outcome = e.outcome;
    c.reason = e.reason;
    if (e.solved()) {
      c.iteration_s = e.sim->iteration_time;
      c.peak_memory_bytes = e.sim->peak_memory_bytes;
      c.solver_s = e.solver_seconds;
    }
    out.push_back(std::move(c));
  }
  return out;
}

Spread spread_of(const std::vector<double>& values) {
  return {nearest_rank(values, 0.5), nearest_rank(values, 0.95), nearest_rank(values, 1.0)};
}

// The figures of one strategy over the batches.
void summarise(DatasetStrategy& s) {
  std::vector<double> times, peaks, solver;
  for (std::size_t b = 0; b < s.cells.size(); ++b) {
    const DatasetCell& c = s.cells[b];
    if (!c.solved()) {
      if (s.first_infeasible < 0) {
        s.first_infeasible = static_cast<int>(b);
        s.first_reason = c.reason;
      }
      ++s.infeasible;
      continue;
    }
    ++s.solved;
    if (s.worst_batch < 0 ||
        c.iteration_s > s.cells[static_cast<std::size_t>(s.worst_batch)].iteration_s)
      s.worst_batch = static_cast<int>(b);
    times.push_back(c.iteration_s);
    peaks.push_back(c.peak_memory_bytes);
    solver.push_back(c.solver_s);
  }
  if (times.empty()) return;
  s.iteration_s = spread_of(times);
  s.peak_memory_bytes = spread_of(peaks);
  s.solver_s = spread_of(solver);
}

// Over the first strategy that solved a batch, as compare's speed-ups are over its first solved
// row: a baseline that places no batch must not leave every speed-up empty.
void set_speedups(std::vector<DatasetStrategy>& strategies) {
  const DatasetStrategy* base = nullptr;
  for (const DatasetStrategy& s : strategies)
    if (s.iteration_s) {
      base = &s;
      break;
    }
  if (base == nullptr) return;
  const double t0 = base->iteration_s->median;
  for (DatasetStrategy& s : strategies) {
    s.baseline = &s == base;
    if (s.iteration_s && t0 > 0.0 && s.iteration_s->median > 0.0)
      s.speedup = t0 / s.iteration_s->median;
  }
}

}  // namespace

WorkloadSpec dataset_batch_workload(const DatasetResult& result, int batch) {
  WorkloadSpec w = result.workload;
  const DatasetBatch& id = result.batches.at(static_cast<std::size_t>(batch));
  w.seed = id.seed;
  // A whole file is its one batch without an index; a cut file's batch is picked by its index.
  const bool sized = w.batch_tokens > 0 || w.batch_count > 0;
  w.batch_index = result.file_batches && sized ? id.index : -1;
  return w;
}

std::string dataset_batch_name(const DatasetResult& result, int batch) {
  const DatasetBatch& id = result.batches.at(static_cast<std::size_t>(batch));
  return result.file_batches ? "batch " + std::to_string(id.index)
                             : "seed " + std::to_string(id.seed);
}

std::string dataset_batch_option(const DatasetResult& result, int batch) {
  const WorkloadSpec w = dataset_batch_workload(result, batch);
  if (!result.file_batches) return "--seed " + std::to_string(w.seed);
  return w.batch_index >= 0 ? "--batch-index " + std::to_string(w.batch_index) : "";
}

Expected<std::vector<Batch>> dataset_batches(const DatasetRequest& request,
                                             std::vector<DatasetBatch>& ids, int& available) {
  const WorkloadSpec& w = request.workload;
  if (w.batch_index >= 0)
    return Error::bad_field("batch index",
                            "the dataset is every batch of the file; a batch index picks one "
                            "for simulate");
  if (request.batches < 0)
    return Error::bad_field("batches",
                            "must be at least 1, got " + std::to_string(request.batches));
  if (!w.file.empty()) return file_batches(request, ids, available);
  // Batch k is the whole workload at seed + k: a preset's pool is drawn with the seed too, so
  // this is the batch `simulate --seed SEED+k` solves (search_batches keeps one pool).
  const int k = request.batches > 0 ? request.batches : kDefaultDatasetBatches;
  std::vector<Batch> out;
  for (int i = 0; i < k; ++i) {
    WorkloadSpec wk = w;
    wk.seed = w.seed + static_cast<std::uint64_t>(i);
    auto pool = load_pool(wk);
    if (!pool) return pool.error();
    auto batch = make_batch(**pool, wk);
    if (!batch) return batch.error();
    ids.push_back(
        {-1, wk.seed, static_cast<std::int64_t>(batch->sequences.size()), batch->total_tokens()});
    out.push_back(std::move(*batch));
  }
  available = k;
  return out;
}

Expected<DatasetResult> run_dataset(const DatasetRequest& request, TaskPool& pool,
                                    const CancelToken& cancel, ProgressSink& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  DatasetResult result;
  result.workload = request.workload;
  result.file_batches = !request.workload.file.empty();
  const std::vector<std::string> strategies =
      request.strategies.empty() ? default_compare_strategies() : request.strategies;
  // A misspelt variant fails before any batch is solved.
  for (const std::string& text : strategies)
    if (auto v = parse_strategy_variant(text, request.config); !v) return v.error();
  auto batches = dataset_batches(request, result.batches, result.available);
  if (!batches) return batches.error();

  const std::size_t k = batches->size();
  std::vector<std::vector<DatasetCell>> cells(k);
  std::mutex mutex;
  std::optional<Error> failure;
  PartsProgress parts(
      progress,
      "dataset: " + batches_word(k) + " x " + std::to_string(strategies.size()) + " strategies", k);
  for_each_index(pool, k, [&](std::size_t b) {
    {
      std::lock_guard lock(mutex);
      if (failure) return;
    }
    if (cancel.cancelled()) return;
    CompareRequest compare;
    compare.batch = (*batches)[b];
    compare.config = request.config;
    compare.seed = result.batches[b].seed;  // the solver's seed, as simulate gives it
    compare.strategies = strategies;
    compare.build_timelines = false;
    compare.sim.keep_ops = false;
    compare.sim.memory_timeline = false;
    compare.sim.critical_path = false;
    PartProgress part(parts, b);
    Expected<std::vector<CompareEntry>> rows = Error::internal("not run");
    // The pool's body must not throw: an allocation failure on one batch fails the dataset.
    try {
      rows = run_compare(compare, cancel, part);
    } catch (const std::bad_alloc&) {
      rows = Error::internal("out of memory");
    } catch (const std::exception& e) {
      rows = Error::internal(e.what());
    }
    std::lock_guard lock(mutex);
    if (!rows) {
      if (!failure) {
        failure = rows.error().kind == ErrorKind::Cancelled
                      ? rows.error()
                      : rows.error().with_context(dataset_batch_name(result, static_cast<int>(b)));
      }
      return;
    }
    cells[b] = cells_of(*rows);
    parts.report(b, 1.0);
  });
  if (failure) return *failure;
  if (cancel.cancelled()) return Error::cancelled();

  for (std::size_t s = 0; s < strategies.size(); ++s) {
    DatasetStrategy row;
    row.strategy = strategies[s];
    for (std::size_t b = 0; b < k; ++b) row.cells.push_back(cells[b][s]);
    summarise(row);
    result.strategies.push_back(std::move(row));
  }
  set_speedups(result.strategies);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace slimpack
