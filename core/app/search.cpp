#include "app/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <optional>

#include "app/pipeline.h"
#include "app/search_bounds.h"
#include "app/strategy_run.h"
#include "common/format.h"
#include "common/percentile.h"

namespace slimpack {
namespace {

// The bounds are computed in floating point like the figures they bound; this margin keeps a
// rounding difference from turning a tie into a prune (and makes every prune strict in tokens/s).
constexpr double kBoundSlack = 1e-9;
// Progress is reported at most this often (the explorer's sinks throttle too).
constexpr double kProgressInterval = 0.05;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double batch_tokens(const Batch& batch) {
  double n = 0.0;
  for (const Sequence& seq : batch.sequences) n += static_cast<double>(seq.length);
  return n;
}

// A configuration that the scenario or a strategy refuses as given (a layer split that does not
// exist, a schedule a strategy cannot run) is a row with its reason, not a failed search.
void set_not_valid(SearchRow& row, const Error& e, int batch) {
  row.status = SearchStatus::Infeasible;
  row.reason = e.message;
  row.limit.reset();
  row.batch = batch;
}

// What a configuration needs on each batch, made once: the run inputs (cost model, parameters)
// and the bounds.
struct Pending {
  SearchRow row;
  std::vector<RunInputs> inputs;
  bool decided = false;  // infeasible by the memory check, or not valid: no solve needed
};

Expected<Pending> prepare(const SearchRequest& request, const std::vector<Batch>& batches,
                          const std::vector<double>& tokens, int index,
                          const SearchConfig& config) {
  Pending p;
  p.row.index = index;
  p.row.config = config;
  const ConfigSpec spec = config_for(request.base, config);
  double least_time = 0.0;
  for (std::size_t k = 0; k < batches.size(); ++k) {
    const int kb = static_cast<int>(k);
    auto inputs = make_run_inputs(spec, batches[k], request.workload.seed + k);
    if (!inputs) {
      if (inputs.error().kind != ErrorKind::BadInput) return inputs.error();
      set_not_valid(p.row, inputs.error(), kb);
      p.decided = true;
      p.row.bound_peak_memory_bytes = 0.0;  // no bounds, as below
      p.row.batch_bound_times.clear();
      p.row.batch_bound_peaks.clear();
      return p;
    }
    const SearchBound bound = search_bound(*inputs->cost, batches[k]);
    least_time += bound.iteration_time;
    p.row.bound_peak_memory_bytes =
        std::max(p.row.bound_peak_memory_bytes, bound.peak_memory_bytes);
    p.row.batch_bound_times.push_back(bound.iteration_time);
    p.row.batch_bound_peaks.push_back(bound.peak_memory_bytes);
    if (request.prune && !p.decided) {
      SolveInput in{batches[k], inputs->cost.get(), inputs->params};
      if (Status st = check_fits(config.strategy, in); !st) {
        const Error& e = st.error();
        if (e.kind == ErrorKind::Infeasible) {
          p.row.status = SearchStatus::Infeasible;
          p.row.reason = e.message;
          p.row.limit = e.detail;
          p.row.batch = kb;
          p.row.memory_check = true;
        } else if (e.kind == ErrorKind::BadInput) {
          set_not_valid(p.row, e, kb);
        } else {
          return e;
        }
        p.decided = true;
        // Decided before its bounds were complete: it carries none, and no front rules it out.
        p.row.bound_peak_memory_bytes = 0.0;
        p.row.batch_bound_times.clear();
        p.row.batch_bound_peaks.clear();
        return p;
      }
    }
    p.inputs.push_back(std::move(*inputs));
  }
  for (double t : tokens) p.row.tokens += t;
  if (least_time > 0.0)
    p.row.bound_tokens_per_second_per_gpu = partial_bound(p.row, 0).tokens_per_second_per_gpu;
  return p;
}

// Solves and simulates every batch; the first batch that cannot be placed decides. Before each
// batch after the first, `ruled_out(row, solved)` may stop it: the bounds with the batches solved
// so far at their figures cannot reach the front (the row is then Pruned).
Status evaluate(Pending& p, const std::vector<Batch>& batches, const std::vector<double>& tokens,
                const std::function<bool(const SearchRow&, std::size_t)>& ruled_out,
                const CancelToken& cancel, long long& solves) {
  SimOptions sim;
  sim.keep_ops = false;
  sim.memory_timeline = false;
  sim.critical_path = false;
  SearchRow& row = p.row;
  std::vector<double> times;
  double all_tokens = 0.0, peak = 0.0;
  for (std::size_t k = 0; k < batches.size(); ++k) {
    if (k > 0 && ruled_out && ruled_out(row, k)) {
      const RowBound b = partial_bound(row, k);
      row.status = SearchStatus::Pruned;
      row.bound_tokens_per_second_per_gpu = b.tokens_per_second_per_gpu;
      row.bound_peak_memory_bytes = b.peak_memory_bytes;
      return {};
    }
    SolveInput in{batches[k], p.inputs[k].cost.get(), p.inputs[k].params};
    ++solves;
    StrategyAttempt a = attempt_strategy(row.config.strategy, in, sim, cancel);
    switch (a.outcome) {
      case RunOutcome::Solved:
        times.push_back(a.run->sim.iteration_time);
        peak = std::max(peak, a.run->sim.peak_memory_bytes);
        row.batch_times.push_back(a.run->sim.iteration_time);
        row.batch_peaks.push_back(a.run->sim.peak_memory_bytes);
        all_tokens += tokens[k];
        continue;
      case RunOutcome::Infeasible:
        row.status = SearchStatus::Infeasible;
        row.reason = a.cause.message;
        row.limit = a.cause.detail;
        row.batch = static_cast<int>(k);
        return {};
      case RunOutcome::Cancelled:
        return Error::cancelled();
      case RunOutcome::Failed:
        if (a.cause.kind == ErrorKind::BadInput) {
          set_not_valid(row, a.cause, static_cast<int>(k));
          return {};
        }
        return a.error().with_context(config_label(row.config));
    }
  }
  double sum = 0.0;
  for (double t : times) sum += t;
  row.status = SearchStatus::Solved;
  row.mean_iteration_time = sum / static_cast<double>(times.size());
  row.p95_iteration_time = nearest_rank(times, 0.95);
  row.tokens_per_second_per_gpu = sum > 0.0 ? all_tokens / sum / row.config.gpus() : 0.0;
  row.peak_memory_bytes = peak;
  return {};
}

// The Pareto order on figures: more tokens/s per GPU, fewer GPUs, less memory; `gpus` and
// `memory` choose the dimensions besides throughput.
bool beats(const SearchRow& a, const SearchRow& b, bool gpus, bool memory) {
  const double ta = a.tokens_per_second_per_gpu, tb = b.tokens_per_second_per_gpu;
  const int ga = a.config.gpus(), gb = b.config.gpus();
  const double ma = a.peak_memory_bytes, mb = b.peak_memory_bytes;
  if (ta < tb || (gpus && ga > gb) || (memory && ma > mb)) return false;
  return ta > tb || (gpus && ga < gb) || (memory && ma < mb);
}

std::vector<int> pareto(const std::vector<SearchRow>& rows, bool gpus, bool memory) {
  std::vector<int> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status != SearchStatus::Solved) continue;
    bool beaten = false;
    for (std::size_t j = 0; j < rows.size() && !beaten; ++j)
      beaten =
          j != i && rows[j].status == SearchStatus::Solved && beats(rows[j], rows[i], gpus, memory);
    if (!beaten) out.push_back(static_cast<int>(i));
  }
  return out;
}

// Progress and the row callback, one at a time.
class Board {
 public:
  Board(const SearchRequest& request, ProgressSink& progress, int total)
      : request_(request), progress_(progress), total_(total), start_(Clock::now()) {}

  void finished(const SearchRow& row) {
    ++done_;
    if (row.status == SearchStatus::Pruned) ++pruned_;
    if (row.status == SearchStatus::Infeasible) ++infeasible_;
    if (request_.on_row) request_.on_row(row);
    const double now = seconds_since(start_);
    if (now - last_ < kProgressInterval && done_ < total_) return;
    last_ = now;
    std::string text = "search: " + std::to_string(done_) + " of " + std::to_string(total_) +
                       " configurations (" + std::to_string(pruned_) + " pruned, " +
                       std::to_string(infeasible_) + " infeasible)";
    if (done_ > 0 && done_ < total_)
      text += ", about " + format_time(now / done_ * (total_ - done_)) + " left";
    progress_.report(text, total_ > 0 ? static_cast<double>(done_) / total_ : 1.0);
  }

 private:
  const SearchRequest& request_;
  ProgressSink& progress_;
  int total_;
  int done_ = 0, pruned_ = 0, infeasible_ = 0;
  Clock::time_point start_;
  double last_ = -1.0;
};

}  // namespace

const char* search_status_name(SearchStatus status) {
  switch (status) {
    case SearchStatus::Solved:
      return "solved";
    case SearchStatus::Infeasible:
      return "infeasible";
    case SearchStatus::Pruned:
      return "pruned";
  }
  return "pruned";
}

bool dominates_bound(const SearchRow& a, const RowBound& b, int b_gpus) {
  if (a.status != SearchStatus::Solved || !(b.tokens_per_second_per_gpu > 0.0)) return false;
  return a.tokens_per_second_per_gpu >= b.tokens_per_second_per_gpu * (1.0 + kBoundSlack) &&
         a.config.gpus() <= b_gpus &&
         a.peak_memory_bytes <= b.peak_memory_bytes * (1.0 - kBoundSlack);
}

bool dominates_bounds(const SearchRow& a, const SearchRow& b) {
  return dominates_bound(a, {b.bound_tokens_per_second_per_gpu, b.bound_peak_memory_bytes},
                         b.config.gpus());
}

RowBound partial_bound(const SearchRow& row, std::size_t solved) {
  const std::size_t k = row.batch_bound_times.size();
  if (k == 0 || row.batch_bound_peaks.size() != k || !(row.tokens > 0.0))
    return {row.bound_tokens_per_second_per_gpu, row.bound_peak_memory_bytes};
  solved = std::min({solved, row.batch_times.size(), row.batch_peaks.size()});
  double time = 0.0, memory = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    time += i < solved ? row.batch_times[i] : row.batch_bound_times[i];
    memory = std::max(memory, row.batch_bound_peaks[i]);
    if (i < solved) memory = std::max(memory, row.batch_peaks[i]);
  }
  return {time > 0.0 ? row.tokens / time / row.config.gpus() : 0.0, memory};
}

std::size_t partial_bounds_reached(const SearchRow& row) {
  const std::size_t k = row.batch_bound_times.size();
  return k == 0 ? 0 : std::min(row.batch_times.size(), k - 1);
}

Expected<std::vector<Batch>> search_batches(const WorkloadSpec& workload, int batches) {
  if (batches < 1)
    return Error::bad_field("batches", "must be at least 1, got " + std::to_string(batches));
  if (workload.batch_index >= 0)
    return Error::bad_field("batch index",
                            "a search draws K batches by seed; a batch index picks one file batch "
                            "for simulate");
  const bool whole_file =
      !workload.file.empty() && workload.batch_tokens == 0 && workload.batch_count == 0;
  if (whole_file && batches > 1)
    return Error::bad_field("batches",
                            "a length file without a batch size is one batch; give a batch "
                            "size to sample " +
                                std::to_string(batches));
  auto pool = load_pool(workload);
  if (!pool) return pool.error();
  std::vector<Batch> out;
  for (int k = 0; k < batches; ++k) {
    WorkloadSpec w = workload;
    w.seed = workload.seed + static_cast<std::uint64_t>(k);
    auto batch = make_batch(**pool, w);
    if (!batch) return batch.error();
    out.push_back(std::move(*batch));
  }
  return out;
}

void finish_search(SearchResult& result, bool pruned) {
  std::vector<SearchRow>& rows = result.rows;
  const std::vector<int> front = pareto(rows, true, true);
  if (pruned) {
    // Every row whose bounds the front beats is Pruned, whatever became of it in this run: solved,
    // pruned, or found infeasible by a solve that another run (or shard) never made. Only the rows
    // the memory check or the scenario decided before any bound (they carry none) keep their
    // status, and they are decided the same way in every run.
    for (SearchRow& row : rows) {
      // The first bound the front beats, in the order a run checks them: before any batch, then
      // after each batch the row got through.
      std::optional<std::size_t> first;
      const std::size_t reached = partial_bounds_reached(row);
      for (std::size_t n = 0; n <= reached && !first; ++n) {
        const RowBound b = partial_bound(row, n);
        for (int f : front)
          if (&rows[static_cast<std::size_t>(f)] != &row &&
              dominates_bound(rows[static_cast<std::size_t>(f)], b, row.config.gpus())) {
            first = n;
            break;
          }
      }
      if (!first) continue;
      const RowBound b = partial_bound(row, *first);
      SearchRow keep = std::move(row);
      row = SearchRow{};
      row.index = keep.index;
      row.config = keep.config;
      row.status = SearchStatus::Pruned;
      row.bound_tokens_per_second_per_gpu = b.tokens_per_second_per_gpu;
      row.bound_peak_memory_bytes = b.peak_memory_bytes;
      row.tokens = keep.tokens;
      row.batch_bound_times = std::move(keep.batch_bound_times);
      row.batch_bound_peaks = std::move(keep.batch_bound_peaks);
      const std::size_t solved = std::min(*first, keep.batch_times.size());
      row.batch_times.assign(keep.batch_times.begin(),
                             keep.batch_times.begin() + static_cast<std::ptrdiff_t>(solved));
      row.batch_peaks.assign(keep.batch_peaks.begin(),
                             keep.batch_peaks.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                            solved, keep.batch_peaks.size())));
    }
  }
  result.front = pareto(rows, true, true);
  result.front_gpus = pareto(rows, true, false);
  result.front_memory = pareto(rows, false, true);
  result.ranking.clear();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].status == SearchStatus::Solved) result.ranking.push_back(static_cast<int>(i));
  std::stable_sort(result.ranking.begin(), result.ranking.end(), [&](int a, int b) {
    return rows[static_cast<std::size_t>(a)].tokens_per_second_per_gpu >
           rows[static_cast<std::size_t>(b)].tokens_per_second_per_gpu;
  });
  SearchStats& st = result.stats;
  st.evaluated = static_cast<int>(rows.size());
  st.solved = st.infeasible = st.memory_checked = st.pruned = 0;
  for (const SearchRow& row : rows) {
    st.solved += row.status == SearchStatus::Solved;
    st.infeasible += row.status == SearchStatus::Infeasible;
    st.memory_checked += row.status == SearchStatus::Infeasible && row.memory_check;
    st.pruned += row.status == SearchStatus::Pruned;
  }
}

Expected<SearchResult> run_search(const SearchRequest& request, TaskPool& pool,
                                  const CancelToken& cancel, ProgressSink& progress) {
  const auto t0 = Clock::now();
  if (request.shards < 1 || request.shard < 0 || request.shard >= request.shards)
    return Error::bad_field("shard", "must be k/N with 0 <= k < N, got " +
                                         std::to_string(request.shard) + "/" +
                                         std::to_string(request.shards));
  SearchResult result;
  auto space = resolve_space(request.space, request.base);
  if (!space) return space.error();
  result.space = *space;
  auto configs = enumerate_space(result.space, request.base);
  if (!configs) return configs.error();
  result.stats.configs = static_cast<int>(configs->size());
  progress.report("search: sampling " + std::to_string(request.batches) + " batches", 0.0);
  auto batches = search_batches(request.workload, request.batches);
  if (!batches) return batches.error();
  std::vector<double> tokens;
  for (const Batch& b : *batches) tokens.push_back(batch_tokens(b));

  // This shard's configurations, without those an earlier run finished.
  std::vector<std::string> done_keys;
  for (const SearchRow& row : request.done) done_keys.push_back(config_key(row.config));
  std::sort(done_keys.begin(), done_keys.end());
  std::vector<int> todo;
  for (std::size_t i = 0; i < configs->size(); ++i) {
    if (shard_of(static_cast<int>(i), request.shards) != request.shard) continue;
    if (std::binary_search(done_keys.begin(), done_keys.end(), config_key((*configs)[i]))) continue;
    todo.push_back(static_cast<int>(i));
  }
  result.stats.resumed = static_cast<int>(request.done.size());

  std::mutex mutex;
  std::optional<Error> failure;
  // Step 1, on the workers: run inputs, bounds and the memory check of every configuration.
  std::vector<Pending> pending(todo.size());
  std::size_t next = 0;
  pool.run_on_workers([&](int) {
    for (;;) {
      std::size_t i;
      {
        std::lock_guard lock(mutex);
        if (failure || next == todo.size()) return;
        if (cancel.cancelled()) {
          failure = Error::cancelled();
          return;
        }
        i = next++;
        if (i % 64 == 0)
          progress.report("search: bounds of " + std::to_string(todo.size()) + " configurations",
                          static_cast<double>(i) / static_cast<double>(todo.size()));
      }
      const int index = todo[i];
      auto p =
          prepare(request, *batches, tokens, index, (*configs)[static_cast<std::size_t>(index)]);
      std::lock_guard lock(mutex);
      if (!p) {
        if (!failure) failure = p.error();
        return;
      }
      pending[i] = std::move(*p);
    }
  });
  if (failure) return *failure;

  // Step 2: the most promising first (highest bound on tokens/s per GPU), so that the evaluated
  // configurations that rule the others out come early.
  std::vector<std::size_t> order(pending.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pending[a].row.bound_tokens_per_second_per_gpu >
           pending[b].row.bound_tokens_per_second_per_gpu;
  });
  std::vector<SearchRow> incumbents;
  for (const SearchRow& row : request.done)
    if (row.status == SearchStatus::Solved) incumbents.push_back(row);
  Board board(request, progress, static_cast<int>(pending.size()));
  long long solves = 0;
  next = 0;
  pool.run_on_workers([&](int) {
    long long my_solves = 0;
    for (;;) {
      Pending* p = nullptr;
      {
        std::lock_guard lock(mutex);
        if (failure || next == order.size()) break;
        if (cancel.cancelled()) {
          failure = Error::cancelled();
          break;
        }
        p = &pending[order[next++]];
        bool beaten = false;
        if (request.prune && !p->decided)
          for (const SearchRow& inc : incumbents)
            if (dominates_bounds(inc, p->row)) {
              beaten = true;
              break;
            }
        if (p->decided || beaten) {
          p->inputs.clear();
          board.finished(p->row);
          continue;
        }
      }
      // After each batch, the bounds with the solved batches at their figures: a configuration
      // far from the front stops after a few batches (docs/search.md, "Bounds").
      auto ruled_out = [&](const SearchRow& row, std::size_t solved) {
        const RowBound b = partial_bound(row, solved);
        std::lock_guard lock(mutex);
        for (const SearchRow& inc : incumbents)
          if (dominates_bound(inc, b, row.config.gpus())) return true;
        return false;
      };
      Status st = evaluate(
          *p, *batches, tokens,
          request.prune ? std::function<bool(const SearchRow&, std::size_t)>(ruled_out) : nullptr,
          cancel, my_solves);
      p->inputs.clear();
      std::lock_guard lock(mutex);
      if (!st) {
        if (!failure) failure = st.error();
        break;
      }
      if (p->row.status == SearchStatus::Solved) {
        // Keep only incumbents nobody beats: fewer comparisons, the same prunes.
        std::erase_if(incumbents, [&](const SearchRow& r) { return beats(p->row, r, true, true); });
        incumbents.push_back(p->row);
      }
      board.finished(p->row);
    }
    std::lock_guard lock(mutex);
    solves += my_solves;
  });
  if (failure) return *failure;

  result.rows = request.done;
  for (Pending& p : pending) result.rows.push_back(std::move(p.row));
  std::sort(result.rows.begin(), result.rows.end(),
            [](const SearchRow& a, const SearchRow& b) { return a.index < b.index; });
  finish_search(result, request.prune);
  result.stats.solves = solves;
  result.stats.seconds = seconds_since(t0);
  progress.report("search: done", 1.0);
  return result;
}

}  // namespace slimpack
