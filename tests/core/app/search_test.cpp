// slimpack search (core/app/search*): the space's rules, bounds that hold for every plan, the
// pruned search's front equal to the exhaustive one, results independent of threads and shards,
// resume, and the fit check that says what the solver says.
#include <gtest/gtest.h>

#include <thread>

#include "app/pipeline.h"
#include "app/search.h"
#include "app/search_bounds.h"
#include "app/search_json.h"
#include "app/strategy_run.h"

namespace slimpack {
namespace {

class TwoThreads final : public TaskPool {
 public:
  int workers() const override { return 2; }
  void run_on_workers(const std::function<void(int)>& body) override {
    std::jthread other([&] { body(1); });
    body(0);
  }
};

// Small enough to solve exhaustively in a test: Llama-3-8B within 8 GPUs on 256K-token batches of
// long-sft-128k, a 60 GB cap so that memory binds for some configurations.
SearchRequest small_request() {
  SearchRequest r;
  r.workload.preset = "long-sft-128k";
  r.workload.seed = 7;
  r.workload.batch_tokens = 256 * 1024;
  r.base.memory_cap_gb = 60.0;
  r.space.gpus = 8;
  r.space.strategies = {"fixed", "sliced", "slimpack"};
  r.batches = 2;
  return r;
}

SearchResult run(const SearchRequest& r, TaskPool& pool = TaskPool::serial()) {
  auto result = run_search(r, pool, CancelToken::none(), ProgressSink::none());
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? std::move(*result) : SearchResult{};
}

TEST(SearchSpace, FollowsTheRules) {
  SearchSpace s;
  s.gpus = 16;
  s.gpus_per_node = 4;
  s.schedules = {ScheduleKind::OneFOneB, ScheduleKind::Interleaved};
  s.strategies = {"fixed", "slimpack"};
  s.recompute = {{RecomputeMode::Auto, 0}};
  ConfigSpec base;  // Llama-3-8B: 32 layers, 32 heads
  auto configs = enumerate_space(s, base);
  ASSERT_TRUE(configs.ok()) << configs.error().message;
  int interleaved = 0;
  for (const SearchConfig& c : *configs) {
    EXPECT_LE(c.gpus(), 16);
    EXPECT_LE(c.t, 4);
    EXPECT_EQ(32 % c.t, 0);
    EXPECT_LE(c.p, 32);
    if (c.schedule == ScheduleKind::Interleaved) {
      ++interleaved;
      EXPECT_EQ(c.strategy, "fixed");
      EXPECT_GE(c.p, 2);
    }
    if (c.strategy == "fixed") {
      EXPECT_EQ(c.slice, 0);
    }
  }
  EXPECT_GT(interleaved, 0);
  // The order is canonical: p outermost, then t, c, d.
  EXPECT_EQ(configs->front().p, 1);
  EXPECT_EQ(configs->back().p, 16);
  // p, t, c, d in {1, 2, 4, 8, 16} with t <= 4: every product <= 16, 2 strategies, 1f1b for
  // both and interleaved for fixed when p >= 2.
  int shapes = 0, shapes_p2 = 0;
  for (int p = 1; p <= 16; p *= 2)
    for (int t = 1; t <= 4; t *= 2)
      for (int c = 1; c <= 8; c *= 2)
        for (int d = 1; d <= 16; d *= 2)
          if (p * t * c * d <= 16) {
            ++shapes;
            shapes_p2 += p >= 2;
          }
  EXPECT_EQ(configs->size(), static_cast<std::size_t>(2 * shapes + shapes_p2));
}

TEST(SearchSpace, BadBoundsNameTheirField) {
  ConfigSpec base;
  SearchSpace s;
  s.gpus = 0;
  auto r = enumerate_space(s, base);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "gpus");
  s.gpus = 8;
  s.tp = {3};
  r = enumerate_space(s, base);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "parallel.tp");
  EXPECT_EQ(r.error().field_reason, "3 does not divide the model's 32 heads");
  s.tp = {16};
  r = enumerate_space(s, base);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field_reason, "16 is more than the 8 GPUs of a node (--gpus-per-node)");
  s.tp = {};
  s.pp = {64};
  r = enumerate_space(s, base);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "parallel.pp");
}

TEST(SearchBatches, SeededAndFileRules) {
  WorkloadSpec w;
  w.batch_tokens = 256 * 1024;
  auto batches = search_batches(w, 3);
  ASSERT_TRUE(batches.ok());
  ASSERT_EQ(batches->size(), 3u);
  // Batch 0 is the batch `slimpack simulate` draws; the others are new draws of the same pool.
  auto pool = load_pool(w);
  ASSERT_TRUE(pool.ok());
  auto first = make_batch(**pool, w);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ((*batches)[0].sequences.size(), first->sequences.size());
  EXPECT_NE((*batches)[0].sequences.front().length, (*batches)[1].sequences.front().length);
  w.file = "lengths.csv";
  w.batch_tokens = 0;
  auto refused = search_batches(w, 2);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().field, "batches");
}

// The bounds hold for every plan of every strategy, schedule, recompute and parallel layout.
TEST(SearchBounds, HoldForEverySolvedConfiguration) {
  SearchRequest r = small_request();
  r.prune = false;
  r.space.strategies = {"fixed", "balanced", "sliced", "slimpack"};
  r.space.schedules = {ScheduleKind::OneFOneB, ScheduleKind::Interleaved, ScheduleKind::GPipe};
  const SearchResult result = run(r);
  int solved = 0;
  for (const SearchRow& row : result.rows) {
    if (row.status != SearchStatus::Solved) continue;
    ++solved;
    EXPECT_LE(row.tokens_per_second_per_gpu, row.bound_tokens_per_second_per_gpu)
        << config_label(row.config);
    EXPECT_GE(row.peak_memory_bytes, row.bound_peak_memory_bytes) << config_label(row.config);
  }
  EXPECT_GT(solved, 100);
}

// The pruned search returns the exhaustive search's fronts, the same figures for what both
// solved, and calls nothing infeasible that is feasible.
TEST(Search, PrunedFrontEqualsExhaustive) {
  SearchRequest r = small_request();
  const SearchResult pruned = run(r);
  r.prune = false;
  const SearchResult all = run(r);
  ASSERT_EQ(pruned.rows.size(), all.rows.size());
  EXPECT_EQ(pruned.front, all.front);
  EXPECT_EQ(pruned.front_gpus, all.front_gpus);
  EXPECT_EQ(pruned.front_memory, all.front_memory);
  EXPECT_FALSE(pruned.front.empty());
  EXPECT_GT(pruned.stats.pruned, 0);
  EXPECT_GT(pruned.stats.memory_checked, 0);
  EXPECT_EQ(all.stats.pruned, 0);
  for (std::size_t i = 0; i < all.rows.size(); ++i) {
    const SearchRow& p = pruned.rows[i];
    const SearchRow& e = all.rows[i];
    if (p.status == SearchStatus::Solved) {
      ASSERT_EQ(e.status, SearchStatus::Solved) << config_label(p.config);
      EXPECT_EQ(p.tokens_per_second_per_gpu, e.tokens_per_second_per_gpu);
      EXPECT_EQ(p.mean_iteration_time, e.mean_iteration_time);
      EXPECT_EQ(p.p95_iteration_time, e.p95_iteration_time);
      EXPECT_EQ(p.peak_memory_bytes, e.peak_memory_bytes);
    }
    if (p.status == SearchStatus::Infeasible) {
      EXPECT_EQ(e.status, SearchStatus::Infeasible);
    }
    // The memory check says exactly what the solver says on the first batch that fails.
    if (p.memory_check && e.batch == p.batch) {
      EXPECT_EQ(p.reason, e.reason);
      EXPECT_EQ(p.limit, e.limit);
    }
  }
}

// Which worker finishes first changes which configurations get solved, never the result.
TEST(Search, ThreadsDoNotChangeTheResult) {
  const SearchRequest r = small_request();
  const SearchResult serial = run(r);
  TwoThreads pool;
  const SearchResult threaded = run(r, pool);
  EXPECT_EQ(serial.rows, threaded.rows);
  EXPECT_EQ(serial.front, threaded.front);
  EXPECT_EQ(serial.ranking, threaded.ranking);
}

// Three shards through their JSONL rows, merged: the unsharded result, file for file.
TEST(Search, MergedShardsEqualTheUnshardedRun) {
  SearchRequest r = small_request();
  const SearchResult whole = run(r);
  auto resolved = resolve_space(r.space, r.base);
  ASSERT_TRUE(resolved.ok());
  const nlohmann::json descriptor = search_descriptor(r, *resolved);
  std::vector<ShardFile> files;
  std::vector<std::string> paths;
  for (int k = 0; k < 3; ++k) {
    SearchRequest s = r;
    s.shard = k;
    s.shards = 3;
    ShardFile file;
    file.descriptor = descriptor;
    file.shard = k;
    file.shards = 3;
    file.configs = whole.stats.configs;
    s.on_row = [&](const SearchRow& row) {
      auto back = search_row_from_json(nlohmann::json::parse(search_row_json(row).dump()), "row");
      ASSERT_TRUE(back.ok()) << back.error().message;
      file.rows.push_back(*back);
    };
    run(s);
    files.push_back(std::move(file));
    paths.push_back("shard" + std::to_string(k));
  }
  nlohmann::json merged_descriptor;
  auto merged = merge_shards(files, paths, merged_descriptor);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->rows, whole.rows);
  EXPECT_EQ(search_result_json(*merged, merged_descriptor).dump(),
            search_result_json(whole, descriptor).dump());
  // A shard missing or given twice is named.
  files.pop_back();
  auto missing = merge_shards(files, paths, merged_descriptor);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "merge: shard 2 of 3 is missing");
}

// A run stopped halfway and resumed from its rows gives the result of one uninterrupted run.
TEST(Search, ResumeSkipsFinishedConfigurations) {
  SearchRequest r = small_request();
  const SearchResult whole = run(r);
  SearchRequest resumed = r;
  for (const SearchRow& row : whole.rows)
    if (row.index % 2 == 0 && row.status != SearchStatus::Pruned) resumed.done.push_back(row);
  int rerun = 0;
  resumed.on_row = [&](const SearchRow&) { ++rerun; };
  const SearchResult again = run(resumed);
  EXPECT_EQ(again.rows, whole.rows);
  EXPECT_EQ(again.front, whole.front);
  EXPECT_EQ(rerun + static_cast<int>(resumed.done.size()), whole.stats.configs);
}

TEST(Search, CancelIsAnOutcome) {
  CancelToken cancel;
  cancel.cancel();
  auto result = run_search(small_request(), TaskPool::serial(), cancel, ProgressSink::none());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::Cancelled);
}

// A solved row's figures are those of solve + simulate on each batch (batch 0 = simulate's).
TEST(Search, FiguresAreTheSimulatedOnes) {
  SearchRequest r = small_request();
  r.batches = 1;
  r.space.pp = {2};
  r.space.tp = {4};
  r.space.cp = {1};
  r.space.dp = {1};
  r.space.recompute = {{RecomputeMode::Auto, 0}};
  r.space.strategies = {"slimpack"};
  const SearchResult result = run(r);
  ASSERT_EQ(result.rows.size(), 1u);
  const SearchRow& row = result.rows[0];
  ASSERT_EQ(row.status, SearchStatus::Solved) << row.reason;
  auto batches = search_batches(r.workload, 1);
  ASSERT_TRUE(batches.ok());
  auto inputs = make_run_inputs(config_for(r.base, row.config), (*batches)[0], r.workload.seed);
  ASSERT_TRUE(inputs.ok());
  auto direct = solve_and_simulate("slimpack", {(*batches)[0], inputs->cost.get(), inputs->params});
  ASSERT_TRUE(direct.ok()) << direct.error().message;
  EXPECT_EQ(row.mean_iteration_time, direct->sim.iteration_time);
  EXPECT_EQ(row.p95_iteration_time, direct->sim.iteration_time);
  EXPECT_EQ(row.peak_memory_bytes, direct->sim.peak_memory_bytes);
  double tokens = 0;
  for (const Sequence& s : (*batches)[0].sequences) tokens += static_cast<double>(s.length);
  EXPECT_DOUBLE_EQ(row.tokens_per_second_per_gpu, tokens / direct->sim.iteration_time / 8.0);
}

}  // namespace
}  // namespace slimpack

namespace slimpack {
namespace {

SearchRow solved_row(int index, int gpus, double tps, double memory) {
  SearchRow r;
  r.index = index;
  r.config =
      SearchConfig{1, 1, 1, gpus, 0, {RecomputeMode::Auto, 0}, ScheduleKind::OneFOneB, "fixed"};
  r.status = SearchStatus::Solved;
  r.tokens_per_second_per_gpu = tps;
  r.peak_memory_bytes = memory;
  r.bound_tokens_per_second_per_gpu = tps * 1.5;
  r.bound_peak_memory_bytes = memory * 0.5;
  return r;
}

// A row a solve found infeasible in one run may be pruned before its solve in another (or in
// another shard): when the front beats its bounds it is reported pruned either way. Rows the memory
// check decided carry no bounds and stay infeasible.
TEST(Search, SettledRowsDoNotDependOnWhatRanFirst) {
  SearchResult result;
  result.rows.push_back(solved_row(0, 4, 1000.0, 40e9));
  SearchRow solved_late = solved_row(1, 8, 500.0, 60e9);
  solved_late.bound_tokens_per_second_per_gpu = 900.0;  // 1000 beats it
  solved_late.bound_peak_memory_bytes = 50e9;
  result.rows.push_back(solved_late);
  SearchRow infeasible_by_solve = solved_late;
  infeasible_by_solve.index = 2;
  infeasible_by_solve.status = SearchStatus::Infeasible;
  infeasible_by_solve.reason = "L4: stage 3 of replica 0 needs 106 GB at its peak";
  result.rows.push_back(infeasible_by_solve);
  SearchRow by_memory_check;
  by_memory_check.index = 3;
  by_memory_check.config = solved_late.config;
  by_memory_check.status = SearchStatus::Infeasible;
  by_memory_check.memory_check = true;
  result.rows.push_back(by_memory_check);
  finish_search(result, true);
  EXPECT_EQ(result.rows[0].status, SearchStatus::Solved);
  EXPECT_EQ(result.rows[1].status, SearchStatus::Pruned);
  EXPECT_EQ(result.rows[2].status, SearchStatus::Pruned);
  EXPECT_TRUE(result.rows[2].reason.empty());
  EXPECT_EQ(result.rows[3].status, SearchStatus::Infeasible);
  EXPECT_EQ(result.front, std::vector<int>{0});
  // A row's JSON keeps its bounds (null when it has none) and reads back the same.
  for (const SearchRow& row : result.rows) {
    auto back = search_row_from_json(nlohmann::json::parse(search_row_json(row).dump()), "row");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, row);
  }
}

// The bounds after n batches: those batches at their figures, the rest at their bounds (by hand).
TEST(SearchBounds, PartialBoundsByHand) {
  SearchRow row = solved_row(0, 2, 0.0, 0.0);
  row.tokens = 1200.0;
  row.batch_bound_times = {1.0, 2.0, 3.0};
  row.batch_bound_peaks = {10.0, 20.0, 15.0};
  row.batch_times = {3.0};
  row.batch_peaks = {25.0};
  const RowBound before = partial_bound(row, 0);
  EXPECT_DOUBLE_EQ(before.tokens_per_second_per_gpu, 1200.0 / 6.0 / 2.0);
  EXPECT_DOUBLE_EQ(before.peak_memory_bytes, 20.0);
  const RowBound after = partial_bound(row, 1);
  EXPECT_DOUBLE_EQ(after.tokens_per_second_per_gpu, 1200.0 / (3.0 + 2.0 + 3.0) / 2.0);
  EXPECT_DOUBLE_EQ(after.peak_memory_bytes, 25.0);
  EXPECT_EQ(partial_bound(row, 5).tokens_per_second_per_gpu, after.tokens_per_second_per_gpu);
  EXPECT_EQ(partial_bounds_reached(row), 1u);
  row.batch_times = {3.0, 2.0, 3.0};  // solved: the last bound checked is after two batches
  row.batch_peaks = {25.0, 20.0, 15.0};
  EXPECT_EQ(partial_bounds_reached(row), 2u);
  SearchRow old_file = solved_row(1, 2, 0.0, 0.0);  // no per-batch figures: its overall bounds
  EXPECT_EQ(partial_bound(old_file, 1).tokens_per_second_per_gpu,
            old_file.bound_tokens_per_second_per_gpu);
}

// A run that stopped a configuration after one batch and a run that solved it whole (another
// thread order, another shard) report the same row: pruned at the first bound the front beats.
TEST(Search, PartialPruneDoesNotDependOnWhereARunStopped) {
  SearchRow front = solved_row(0, 2, 1000.0, 40e9);
  SearchRow whole = solved_row(1, 2, 100.0, 60e9);
  whole.tokens = 2.0 * 1200.0;  // 1200 tokens/s per GPU at the bounds before any batch
  whole.batch_bound_times = {0.5, 0.5};
  whole.batch_bound_peaks = {50e9, 50e9};
  whole.batch_times = {5.5, 6.5};  // after batch 0: 2400 / 6.0 / 2 = 200 tokens/s per GPU
  whole.batch_peaks = {60e9, 60e9};
  whole.bound_tokens_per_second_per_gpu = partial_bound(whole, 0).tokens_per_second_per_gpu;
  whole.bound_peak_memory_bytes = 50e9;
  whole.mean_iteration_time = 6.0;
  SearchRow stopped = whole;
  stopped.status = SearchStatus::Pruned;
  stopped.batch_times.resize(1);
  stopped.batch_peaks.resize(1);
  stopped.mean_iteration_time = 0.0;
  stopped.tokens_per_second_per_gpu = stopped.peak_memory_bytes = 0.0;
  SearchResult a, b;
  a.rows = {front, whole};
  b.rows = {front, stopped};
  finish_search(a, true);
  finish_search(b, true);
  EXPECT_EQ(a.rows[1].status, SearchStatus::Pruned);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_DOUBLE_EQ(a.rows[1].bound_tokens_per_second_per_gpu, 200.0);
  EXPECT_EQ(a.rows[1].batch_times, std::vector<double>{5.5});
  // Its JSON reads back the same.
  auto back = search_row_from_json(nlohmann::json::parse(search_row_json(a.rows[1]).dump()), "row");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, a.rows[1]);
}

// On four batches the bounds after each solved batch rule out configurations the bounds before any
// solve could not, and the front stays the exhaustive one.
TEST(Search, BoundsAfterEachBatchPruneMoreWithTheSameFront) {
  SearchRequest r = small_request();
  r.batches = 4;
  const SearchResult pruned = run(r);
  r.prune = false;
  const SearchResult all = run(r);
  EXPECT_EQ(pruned.front, all.front);
  EXPECT_EQ(pruned.front_gpus, all.front_gpus);
  EXPECT_EQ(pruned.front_memory, all.front_memory);
  int after_a_batch = 0;
  for (const SearchRow& row : pruned.rows)
    if (row.status == SearchStatus::Pruned && !row.batch_times.empty()) ++after_a_batch;
  EXPECT_GT(after_a_batch, 0);
  EXPECT_LT(pruned.stats.solves, all.stats.solves);
  for (int f : pruned.front)
    EXPECT_EQ(pruned.rows[static_cast<std::size_t>(f)], all.rows[static_cast<std::size_t>(f)]);
}

}  // namespace
}  // namespace slimpack
