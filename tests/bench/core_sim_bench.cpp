// Simulator throughput: 1F1B plans with explicit times (p = 16, M = 4096 -> 131k compute ops;
// M = 32768 -> 1M ops) and a cost-model-priced plan. Reports compute ops per second.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <functional>

#include <string>

#include "cost/cost_model.h"
#include "plan/plan_json.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

Plan bench_plan(int stages, int packs, bool explicit_times) {
  Plan plan;
  plan.stages = stages;
  plan.sequences.reserve(static_cast<std::size_t>(packs));
  ReplicaPlan rp;
  rp.forward.reserve(static_cast<std::size_t>(packs));
  rp.backward.reserve(static_cast<std::size_t>(packs));
  for (int m = 0; m < packs; ++m) {
    // Lengths 1k..8k in a fixed pattern so that priced packs differ.
    const Tokens len = 1024 * (1 + (m * 7) % 8);
    plan.sequences.push_back({"s" + std::to_string(m), len});
    Pack f;
    f.segments.push_back({m, 0, len});
    Pack b = f;
    if (explicit_times) {
      f.time = 1.0 + 0.125 * ((m * 7) % 8);
      b.time = 2.0 * *f.time;
    }
    rp.forward.push_back(std::move(f));
    rp.backward.push_back(std::move(b));
  }
  plan.replicas.push_back(std::move(rp));
  return plan;
}

void run(benchmark::State& state, const Plan& plan, const CostModel* cost, SimOptions opts) {
  opts.check_legality = false;
  for (auto _ : state) {
    auto res = simulate(plan, cost, opts);
    if (!res) state.SkipWithError(res.error().message.c_str());
    benchmark::DoNotOptimize(res);
  }
  const auto ops = 2 * static_cast<std::int64_t>(plan.stages) *
                   static_cast<std::int64_t>(plan.replicas[0].forward.size());
  state.SetItemsProcessed(state.iterations() * ops);
  state.counters["compute_ops"] = static_cast<double>(ops);
}

void BM_Sim1F1BExplicit(benchmark::State& state) {
  const Plan plan =
      bench_plan(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), true);
  run(state, plan, nullptr, SimOptions{});
}
BENCHMARK(BM_Sim1F1BExplicit)->Args({16, 4096})->Args({16, 32768})->Unit(benchmark::kMillisecond);

// Metrics only (what a solver's candidate sweep asks for).
void BM_Sim1F1BMetricsOnly(benchmark::State& state) {
  const Plan plan =
      bench_plan(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), true);
  SimOptions o;
  o.keep_ops = false;
  o.memory_timeline = false;
  o.critical_path = false;
  run(state, plan, nullptr, o);
}
BENCHMARK(BM_Sim1F1BMetricsOnly)
    ->Args({16, 4096})
    ->Args({16, 32768})
    ->Unit(benchmark::kMillisecond);

// Approximates a cold call (the CLI simulates once per process): memory freed by the previous
// iteration goes back to the OS first, so every page the simulator touches faults again.
void BM_Sim1F1BCold(benchmark::State& state) {
  Plan plan = bench_plan(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), true);
  SimOptions o;
  o.check_legality = false;
  for (auto _ : state) {
    state.PauseTiming();
    malloc_trim(0);
    state.ResumeTiming();
    auto res = simulate(plan, nullptr, o);
    if (!res) state.SkipWithError(res.error().message.c_str());
    benchmark::DoNotOptimize(res);
  }
}
BENCHMARK(BM_Sim1F1BCold)
    ->Args({16, 4096})
    ->Args({16, 32768})
    ->Iterations(1)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

void BM_Sim1F1BCostModel(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  const Plan plan = bench_plan(p, static_cast<int>(state.range(1)), false);
  auto model = model_preset("llama-3-8b");
  auto gpu = gpu_preset("h100-sxm");
  if (!model || !gpu) {
    state.SkipWithError("missing preset");
    return;
  }
  ParallelConfig par;
  par.pp = p;
  const CostModel cost(*model, *gpu, par);
  run(state, plan, &cost, SimOptions{});
}
BENCHMARK(BM_Sim1F1BCostModel)->Args({16, 4096})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace slimpack

// A plan file named by SLIMPACK_BENCH_PLAN (scripts/megatron_sim_compare.py writes one): what
// simulate() costs on a plan that another simulator times too. `full` is every result the CLI
// computes (legality, ops, critical path); `no_legality` skips the legality check, which the
// other simulators do not have. Registered only when the variable is set.
namespace slimpack {
namespace {

void BM_SimPlanFile(benchmark::State& state, const Plan& plan, bool legality) {
  SimOptions o;
  o.check_legality = legality;
  for (auto _ : state) {
    auto res = simulate(plan, nullptr, o);
    if (!res) state.SkipWithError(res.error().message.c_str());
    benchmark::DoNotOptimize(res);
  }
  std::int64_t ops = 0;
  for (const ReplicaPlan& rp : plan.replicas)
    ops += static_cast<std::int64_t>(plan.stages) *
           static_cast<std::int64_t>(rp.forward.size() + rp.backward.size());
  state.SetItemsProcessed(state.iterations() * ops);
  state.counters["compute_ops"] = static_cast<double>(ops);
}

const bool plan_file_registered = [] {
  const char* path = std::getenv("SLIMPACK_BENCH_PLAN");
  if (!path) return false;
  auto plan = read_plan_file(path);
  if (!plan) {
    std::fprintf(stderr, "SLIMPACK_BENCH_PLAN: %s\n", plan.error().message.c_str());
    std::exit(2);
  }
  static const Plan loaded = std::move(plan).value();
  benchmark::RegisterBenchmark("BM_SimPlanFile/full", BM_SimPlanFile, std::cref(loaded), true)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_SimPlanFile/no_legality", BM_SimPlanFile, std::cref(loaded),
                               false)
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace slimpack
