// slimpack dataset (core/app/dataset.h): a file cut into consecutive batches, the percentile by
// hand, every batch's figures equal to the simulation of that batch alone (what `simulate
// --batch-index N` / `--seed N` runs), the worst batch the longest, the same result on two threads,
// and cancel.
#include <gtest/gtest.h>

#include <thread>

#include "app/dataset.h"
#include "app/dataset_json.h"
#include "app/pipeline.h"
#include "common/percentile.h"
#include "workload/batch_cut.h"

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

const std::string kChat =
    std::string(SLIMPACK_SOURCE_DIR) + "/samples/lengths/chat_sft_lengths.csv";

// The 400 chat lengths (about 360K tokens) in 64K-token batches, two strategies.
DatasetRequest chat_request() {
  DatasetRequest r;
  r.workload.file = kChat;
  r.workload.batch_tokens = 65536;
  r.config.pp = 2;
  r.config.tp = 2;
  r.strategies = {"fixed", "slimpack"};
  return r;
}

DatasetResult run(const DatasetRequest& r, TaskPool& pool = TaskPool::serial()) {
  auto result = run_dataset(r, pool, CancelToken::none(), ProgressSink::none());
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? std::move(*result) : DatasetResult{};
}

// The iteration time the explorer's main view (and `slimpack simulate`) gives for the workload.
double simulated(const WorkloadSpec& w, ConfigSpec config, const std::string& strategy) {
  PipelineRequest p;
  p.workload = w;
  config.strategy = strategy;
  p.config = config;
  p.build_timeline = false;
  auto snap = run_pipeline(p, CancelToken::none(), ProgressSink::none());
  EXPECT_TRUE(snap.ok()) << snap.error().message;
  return snap.ok() ? snap->sim.iteration_time : -1.0;
}

TEST(NearestRank, ByHand) {
  EXPECT_EQ(nearest_rank({5, 1, 4, 2, 3}, 0.5), 3);   // ceil(2.5) = 3rd
  EXPECT_EQ(nearest_rank({5, 1, 4, 2, 3}, 0.95), 5);  // ceil(4.75) = 5th
  EXPECT_EQ(nearest_rank({2, 1}, 0.5), 1);            // ceil(1) = 1st: the smaller of two
  EXPECT_EQ(nearest_rank({7}, 0.95), 7);
  std::vector<double> twenty;
  for (int i = 20; i >= 1; --i) twenty.push_back(i);
  EXPECT_EQ(nearest_rank(twenty, 0.95), 19);  // ceil(19) = 19th
  EXPECT_EQ(nearest_rank(twenty, 0.5), 10);
  EXPECT_EQ(nearest_rank(twenty, 1.0), 20);
  EXPECT_EQ(nearest_rank(twenty, 0.0), 1);
}

TEST(BatchCut, ConsecutiveBatchesCoverTheFile) {
  LengthPool pool{"p", {100, 200, 300, 50, 400}};
  BatchSpec budget;
  budget.token_budget = 300;  // closes at the first sequence that reaches 300
  auto r = cut_pool(pool, budget);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<BatchRange>{{0, 2}, {2, 3}, {3, 5}}));
  BatchSpec count;
  count.count = 2;  // the last batch takes what remains
  EXPECT_EQ(*cut_pool(pool, count), (std::vector<BatchRange>{{0, 2}, {2, 4}, {4, 5}}));
  EXPECT_EQ(*cut_pool(pool, BatchSpec{}), (std::vector<BatchRange>{{0, 5}}));
  const Batch b = batch_of_range(pool, {3, 5});
  ASSERT_EQ(b.sequences.size(), 2u);
  EXPECT_EQ(b.sequences[0].length, 50);
  EXPECT_EQ(b.sequences[0].sample, 3);  // its position in the file
  EXPECT_EQ(b.sequences[1].id, "s1");
}

TEST(BatchCut, BatchIndexPicksAFileBatchAndNamesBadOnes) {
  auto pool = load_pool(chat_request().workload);
  ASSERT_TRUE(pool.ok());
  WorkloadSpec w = chat_request().workload;
  w.batch_index = 1;
  auto batch = make_batch(**pool, w);
  ASSERT_TRUE(batch.ok()) << batch.error().message;
  auto ranges = cut_pool(**pool, BatchSpec{65536, 0, 1});
  ASSERT_TRUE(ranges.ok());
  EXPECT_EQ(batch->sequences.front().sample, (*ranges)[1].begin);
  EXPECT_GE(batch->total_tokens(), 65536);
  w.batch_index = static_cast<std::int64_t>(ranges->size());
  auto past = make_batch(**pool, w);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().field, "batch index");
  EXPECT_NE(
      past.error().message.find("the file has " + std::to_string(ranges->size()) + " batches"),
      std::string::npos)
      << past.error().message;
  WorkloadSpec preset;
  preset.batch_index = 0;
  auto p = load_pool(preset);
  ASSERT_TRUE(p.ok());
  auto refused = make_batch(**p, preset);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().field, "batch index");
  EXPECT_EQ(workload_label(w).substr(w.file.size()), ", batch " + std::to_string(w.batch_index));
}

TEST(Dataset, FileBatchesAreTheSimulatedBatches) {
  const DatasetRequest request = chat_request();
  const DatasetResult r = run(request);
  ASSERT_TRUE(r.file_batches);
  // The file cut as cut_pool cuts it: every sequence in one batch, in file order.
  auto pool = load_pool(request.workload);
  auto ranges = cut_pool(**pool, BatchSpec{65536, 0, 1});
  ASSERT_EQ(r.batches.size(), ranges->size());
  EXPECT_EQ(r.available, static_cast<int>(ranges->size()));
  ASSERT_GE(r.batches.size(), 4u);
  Tokens total = 0;
  for (const DatasetBatch& b : r.batches) total += b.tokens;
  EXPECT_EQ(total, batch_from_pool(**pool).total_tokens());
  ASSERT_EQ(r.strategies.size(), 2u);
  for (const DatasetStrategy& s : r.strategies) {
    ASSERT_EQ(s.cells.size(), r.batches.size());
    EXPECT_EQ(s.solved, static_cast<int>(r.batches.size())) << s.first_reason;
    // Every batch's time is the one the batch gives alone.
    for (std::size_t b = 0; b < r.batches.size(); ++b) {
      const WorkloadSpec w = dataset_batch_workload(r, static_cast<int>(b));
      EXPECT_EQ(w.batch_index, static_cast<std::int64_t>(b));
      EXPECT_DOUBLE_EQ(s.cells[b].iteration_s, simulated(w, request.config, s.strategy))
          << s.strategy << " batch " << b;
    }
    // The spread by hand: nearest rank over the cells; the worst batch is the argmax.
    std::vector<double> times;
    for (const DatasetCell& c : s.cells) times.push_back(c.iteration_s);
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    EXPECT_EQ(s.iteration_s->median, sorted[(n + 1) / 2 - 1]);
    EXPECT_EQ(s.iteration_s->max, sorted.back());
    EXPECT_EQ(s.iteration_s->p95, sorted.back());  // fewer than 20 batches: p95 is the max
    const auto worst = std::max_element(times.begin(), times.end()) - times.begin();
    EXPECT_EQ(s.worst_batch, worst);
    EXPECT_EQ(dataset_batch_option(r, s.worst_batch), "--batch-index " + std::to_string(worst));
    EXPECT_GT(s.peak_memory_bytes->max, 1e9);
  }
  EXPECT_TRUE(r.strategies[0].baseline);
  EXPECT_DOUBLE_EQ(*r.strategies[1].speedup,
                   r.strategies[0].iteration_s->median / r.strategies[1].iteration_s->median);
}

TEST(Dataset, PresetBatchesAreSeeded) {
  DatasetRequest request;
  request.workload.preset = "chat-sft";
  request.workload.batch_tokens = 65536;
  request.config.pp = 2;
  request.config.tp = 2;
  request.strategies = {"slimpack"};
  request.batches = 2;
  const DatasetResult r = run(request);
  ASSERT_EQ(r.batches.size(), 2u);
  EXPECT_FALSE(r.file_batches);
  EXPECT_EQ(r.batches[1].seed, kDefaultSeed + 1);
  const DatasetStrategy& s = r.strategies[0];
  // Two batches by hand: the median is the shorter iteration, p95 and max the longer.
  const double t0 = simulated(dataset_batch_workload(r, 0), request.config, "slimpack");
  const double t1 = simulated(dataset_batch_workload(r, 1), request.config, "slimpack");
  EXPECT_DOUBLE_EQ(s.iteration_s->median, std::min(t0, t1));
  EXPECT_DOUBLE_EQ(s.iteration_s->p95, std::max(t0, t1));
  EXPECT_EQ(s.worst_batch, t1 > t0 ? 1 : 0);
  EXPECT_EQ(dataset_batch_option(r, 1), "--seed " + std::to_string(kDefaultSeed + 1));
  const nlohmann::json j = dataset_json(r, {});
  EXPECT_EQ(j["strategies"][0]["worst_batch"]["seed"].get<std::uint64_t>(),
            r.batches[static_cast<std::size_t>(s.worst_batch)].seed);
  EXPECT_TRUE(j["strategies"][0]["iteration_s"].contains("p95"));
}

TEST(Dataset, TwoThreadsGiveTheSameFigures) {
  TwoThreads pool;
  const DatasetResult serial = run(chat_request());
  const DatasetResult threaded = run(chat_request(), pool);
  ASSERT_EQ(serial.strategies.size(), threaded.strategies.size());
  for (std::size_t s = 0; s < serial.strategies.size(); ++s)
    for (std::size_t b = 0; b < serial.batches.size(); ++b)
      EXPECT_EQ(serial.strategies[s].cells[b].iteration_s,
                threaded.strategies[s].cells[b].iteration_s);
}

TEST(Dataset, InfeasibleBatchesKeepTheirReason) {
  DatasetRequest request = chat_request();
  request.config.memory_cap_gb = 20.0;  // below the static memory of Llama-3-8B on p=2, t=2
  const DatasetResult r = run(request);
  for (const DatasetStrategy& s : r.strategies) {
    EXPECT_EQ(s.infeasible, static_cast<int>(r.batches.size()));
    EXPECT_EQ(s.first_infeasible, 0);
    EXPECT_FALSE(s.first_reason.empty());
    EXPECT_FALSE(s.iteration_s.has_value());
    EXPECT_FALSE(s.speedup.has_value());
  }
}

TEST(Dataset, RefusesWhatIsNotADataset) {
  DatasetRequest request = chat_request();
  request.workload.batch_index = 2;
  auto r = run_dataset(request, TaskPool::serial(), CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "batch index");
  request = chat_request();
  request.batches = 1000;
  r = run_dataset(request, TaskPool::serial(), CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "batches");
  request = chat_request();
  request.strategies = {"fixed", "magic"};
  r = run_dataset(request, TaskPool::serial(), CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("magic"), std::string::npos);
}

// Cancels on the first progress report: no batch after it starts.
class CancelOnFirst final : public ProgressSink {
 public:
  explicit CancelOnFirst(const CancelToken& token) : token_(token) {}
  void report(std::string_view, double) override { token_.cancel(); }

 private:
  CancelToken token_;
};

TEST(Dataset, CancelStopsIt) {
  CancelToken token;
  CancelOnFirst sink(token);
  auto r = run_dataset(chat_request(), TaskPool::serial(), token, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
}

}  // namespace
}  // namespace slimpack
