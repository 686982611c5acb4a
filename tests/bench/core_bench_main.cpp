// slimpack_bench's main: the allocator policy of the shipped programs (core/common/memory_reuse.h)
// first, so that the benchmarks time what `slimpack` and the explorer run. With
// SLIMPACK_BENCH_DEFAULT_MALLOC=1 it keeps glibc's defaults, to measure what the policy is worth.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>

#include "common/memory_reuse.h"

int main(int argc, char** argv) {
  const char* plain = std::getenv("SLIMPACK_BENCH_DEFAULT_MALLOC");
  if (!plain || std::strcmp(plain, "1") != 0) slimpack::keep_freed_memory_for_reuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
