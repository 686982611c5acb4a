// The whole-dataset view (core/app/dataset.h, docs/performance.md "Whole dataset"): every batch of
// a realistic length file and 16 seeded batches of the default long-context preset, each with the
// four default strategies, on one worker and on two. Counters: batches per second (each batch
// solved and simulated by every strategy) and, per strategy, the solver's p95 over its median
// iteration time (can it plan one batch ahead online?).
#include <benchmark/benchmark.h>

#include <thread>
#include <vector>

#include "app/dataset.h"

namespace slimpack {
namespace {

// `n` std::threads, the caller being the first (as the CLI's pool).
class Threads final : public TaskPool {
 public:
  explicit Threads(int n) : n_(n) {}
  int workers() const override { return n_; }
  void run_on_workers(const std::function<void(int)>& body) override {
    std::vector<std::jthread> others;
    for (int i = 1; i < n_; ++i) others.emplace_back([&body, i] { body(i); });
    body(0);
  }

 private:
  int n_;
};

void run(benchmark::State& state, const DatasetRequest& request) {
  Threads pool(static_cast<int>(state.range(0)));
  double batches = 0.0;
  for (auto _ : state) {
    auto r = run_dataset(request, pool, CancelToken::none(), ProgressSink::none());
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    batches += static_cast<double>(r->batches.size());
    for (const DatasetStrategy& s : r->strategies)
      if (s.solver_s && s.iteration_s->median > 0.0)
        state.counters["solver_p95/iter_" + s.strategy] = s.solver_s->p95 / s.iteration_s->median;
    state.counters["batches"] = static_cast<double>(r->batches.size());
  }
  state.counters["batches/s"] = benchmark::Counter(batches, benchmark::Counter::kIsRate);
}

// LongAlign-style mix (samples/lengths/longalign_mix.csv: 240 samples up to 128K tokens) cut into
// 256K-token batches, Llama-3-8B on p=4, t=8.
void BM_DatasetLongAlignFile(benchmark::State& state) {
  DatasetRequest r;
  r.workload.file = SLIMPACK_SAMPLES_DIR "/lengths/longalign_mix.csv";
  r.workload.column = "length";
  r.workload.batch_tokens = 256 * 1024;
  run(state, r);
}
BENCHMARK(BM_DatasetLongAlignFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The explorer's default workload: 16 seeded 1M-token batches of long-sft-128k.
void BM_DatasetLongSftPreset16(benchmark::State& state) {
  DatasetRequest r;
  r.batches = 16;
  run(state, r);
}
BENCHMARK(BM_DatasetLongSftPreset16)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace slimpack
