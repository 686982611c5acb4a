// Trace import throughput: a ~50 MB synthetic Kineto-like trace (CPU ops with args, GPU kernels,
// B/E ranges, instants, counters, flows over 8 ranks x 3 lanes) written to the temp directory
// once, then imported with and without keeping events. Reports bytes/s (JSON text).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "trace/trace_import.h"

namespace slimpack {
namespace {

constexpr std::size_t kTargetBytes = 50u << 20;

void append_event(std::string& out, long i) {
  const long rank = i % 8, lane = (i / 8) % 3;
  const long ts = 1000 + i * 3;
  char buf[512];
  int n = 0;
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      n = std::snprintf(buf, sizeof buf,
                        R"({"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": %ld, )"
                        R"("tid": %ld, "ts": %ld.125, "dur": 2.5, "args": {"External id": %ld, )"
                        R"("Input Dims": [[8, 4096], [4096, 4096]], "Sequence number": %ld}})",
                        rank, 100 + lane, ts, i, i / 3);
      break;
    case 3:
    case 4:
    case 5:
      n = std::snprintf(buf, sizeof buf,
                        R"({"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32",)"
                        R"( "pid": %ld, "tid": "stream %ld", "ts": %ld.5, "dur": 1.75, "args": )"
                        R"({"correlation": %ld, "grid": [132, 1, 1], "block": [384, 1, 1]}})",
                        rank, 7 + lane, ts, i);
      break;
    case 6:
      n = std::snprintf(buf, sizeof buf,
                        R"({"ph": "B", "cat": "python_function", "name": "forward", "pid": %ld, )"
                        R"("tid": 999, "ts": %ld})",
                        rank, ts);
      break;
    case 7:
      // Closes the "B" of the previous event, which went to rank (i - 1) % 8.
      n = std::snprintf(buf, sizeof buf, R"({"ph": "E", "pid": %ld, "tid": 999, "ts": %ld})",
                        (i - 1) % 8, ts);
      break;
    case 8:
      n = std::snprintf(buf, sizeof buf,
                        R"({"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": )"
                        R"(%ld, "tid": %ld, "ts": %ld, "s": "t", "args": {"Bytes": 1024}})",
                        rank, 100 + lane, ts);
      break;
    default:
      n = std::snprintf(buf, sizeof buf,
                        R"({"ph": "C", "name": "GPU memory", "pid": %ld, "ts": %ld, "args": )"
                        R"({"allocated": %ld}})",
                        rank, ts, i * 64);
      break;
  }
  out.append(buf, static_cast<std::size_t>(n));
}

// Written once per process; every benchmark reads the same file.
const std::string& bench_trace() {
  static const std::string path = [] {
    const std::string p =
        (std::filesystem::temp_directory_path() / "slimpack_trace_bench.json").string();
    std::string text = "{\"traceEvents\": [\n";
    text.reserve(kTargetBytes + (1u << 20));
    for (long i = 0; text.size() < kTargetBytes; ++i) {
      if (i > 0) text += ",\n";
      append_event(text, i);
    }
    text += "\n], \"displayTimeUnit\": \"ms\"}\n";
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }();
  return path;
}

void run(benchmark::State& state, bool keep_events) {
  const std::string& path = bench_trace();
  TraceImportOptions opt;
  opt.keep_events = keep_events;
  std::int64_t bytes = 0, events = 0;
  for (auto _ : state) {
    auto t = import_chrome_trace(path, opt);
    if (!t) {
      state.SkipWithError(t.error().message.c_str());
      return;
    }
    bytes = t->bytes;
    events = t->events;
    benchmark::DoNotOptimize(t);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["events"] = static_cast<double>(events);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_TraceImport(benchmark::State& state) {
  run(state, true);
}
BENCHMARK(BM_TraceImport)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// What `trace info` does: counts and lanes, no per-event storage.
void BM_TraceImportCountOnly(benchmark::State& state) {
  run(state, false);
}
BENCHMARK(BM_TraceImportCountOnly)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace slimpack
