// Solver throughput (docs/design.md section 10): slicer and the baselines on 100k sequences; the
// SlimPack heuristic on a 4M-token short-heavy-tail batch with p = 8, d = 8; solve + simulate of
// the default workload (the GUI's slice-size slider).
#include <benchmark/benchmark.h>

#include "cost/cost_model.h"
#include "sim/simulator.h"
#include "slicer/slicer.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

Batch preset_batch(const char* preset, Tokens budget, std::int64_t count) {
  LengthPool pool = preset_pool(preset, 7, 20000).value();
  BatchSpec spec;
  spec.token_budget = budget;
  spec.count = count;
  spec.seed = 3;
  return sample_batch(pool, spec).value();
}

CostModel cost_for(const char* model, int pp, int dp, int tp) {
  ParallelConfig par;
  par.pp = pp;
  par.dp = dp;
  par.tp = tp;
  return CostModel(model_preset(model).value(), gpu_preset("h100-sxm").value(), par);
}

void BM_SlicerChatSft100k(benchmark::State& state) {
  const Batch batch = preset_batch("chat-sft", 0, 100000);
  for (auto _ : state) benchmark::DoNotOptimize(slice_batch(batch.sequences, 1024));
}
BENCHMARK(BM_SlicerChatSft100k)->Unit(benchmark::kMillisecond);

void BM_Baseline100k(benchmark::State& state, const char* strategy) {
  const Batch batch = preset_batch("chat-sft", 0, 100000);
  const CostModel cost = cost_for("llama-3-8b", 4, 1, 8);
  SolveInput in{batch, &cost, {}};
  in.params.slice_size = 1024;
  for (auto _ : state) {
    auto r = solve(strategy, in);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      break;
    }
    // Phase split of the last run (the legality gate is part of every solve).
    for (const auto& [name, seconds] : r->stats.phase_seconds) state.counters[name] = seconds;
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_Baseline100k, fixed, "fixed")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Baseline100k, balanced, "balanced")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Baseline100k, sliced, "sliced")->Unit(benchmark::kMillisecond);

void BM_SlimPackLongTail4M(benchmark::State& state) {
  const Batch batch = preset_batch("short-heavy-tail", Tokens{4} << 20, 0);
  const CostModel cost = cost_for("llama-3-70b", 8, 8, 8);
  SolveInput in{batch, &cost, {}};
  for (auto _ : state) {
    auto r = solve("slimpack", in);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      break;
    }
    for (const auto& [name, seconds] : r->stats.phase_seconds) state.counters[name] = seconds;
    benchmark::DoNotOptimize(r);
  }
  state.counters["sequences"] = static_cast<double>(batch.sequences.size());
}
BENCHMARK(BM_SlimPackLongTail4M)->Unit(benchmark::kMillisecond);

void BM_DefaultWorkloadSolveSimulate(benchmark::State& state) {
  const Batch batch = preset_batch(kDefaultPreset, kDefaultBatchTokens, 0);
  const CostModel cost = cost_for("llama-3-8b", 4, 1, 8);
  SolveInput in{batch, &cost, {}};
  for (auto _ : state) {
    auto r = solve("slimpack", in);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(simulate(r->plan, &cost));
  }
}
BENCHMARK(BM_DefaultWorkloadSolveSimulate)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace slimpack
