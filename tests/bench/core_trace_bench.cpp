// Trace import throughput and memory. A ~50 MB synthetic Kineto-like trace (CPU ops with args, GPU
// kernels, B/E ranges, instants, counters over 8 ranks x 3 lanes; the same generator as
// scripts/bench-trace.sh) is written to the temp directory once, plain and gzipped, then imported
// with events and args, without args, and counting only. Reports bytes/s of JSON text.
// BM_TraceImportMemory imports 1M and 10M events and reports the heap the result keeps
// (mallinfo2, text and parser freed) per event, with and without args text.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
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

// Writes events until `max_bytes` of text or `max_events` events, streaming in 1 MiB pieces.
void write_trace(const std::string& path, std::size_t max_bytes, long max_events) {
  std::ofstream out(path, std::ios::binary);
  std::string chunk = "{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": [\n";
  std::size_t written = 0;
  for (long i = 0; i < max_events && written + chunk.size() < max_bytes; ++i) {
    if (i > 0) chunk += ",\n";
    append_event(chunk, i);
    if (chunk.size() > (1u << 20)) {
      out << chunk;
      written += chunk.size();
      chunk.clear();
    }
  }
  chunk += "\n], \"displayTimeUnit\": \"ms\"}\n";
  out << chunk;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Written once per process; every throughput benchmark reads the same files.
const std::string& bench_trace() {
  static const std::string path = [] {
    const std::string p =
        (std::filesystem::temp_directory_path() / "slimpack_trace_bench.json").string();
    write_trace(p, kTargetBytes, 1L << 40);
    return p;
  }();
  return path;
}

const std::string& bench_trace_gz() {
  static const std::string path = [] {
    const std::string p = bench_trace() + ".gz";
    const std::string text = read_all(bench_trace());
    gzFile gz = gzopen(p.c_str(), "wb6");
    if (gz) {
      gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
      gzclose(gz);
    }
    return p;
  }();
  return path;
}

void run(benchmark::State& state, const std::string& path, bool keep_events, bool keep_args) {
  TraceImportOptions opt;
  opt.keep_events = keep_events;
  opt.keep_args = keep_args;
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

// What the explorer does: events with their args text for tooltips.
void BM_TraceImport(benchmark::State& state) {
  run(state, bench_trace(), true, true);
}
BENCHMARK(BM_TraceImport)->Unit(benchmark::kMillisecond);

void BM_TraceImportNoArgs(benchmark::State& state) {
  run(state, bench_trace(), true, false);
}
BENCHMARK(BM_TraceImportNoArgs)->Unit(benchmark::kMillisecond);

// What `trace info` does: counts and lanes, no per-event storage.
void BM_TraceImportCountOnly(benchmark::State& state) {
  run(state, bench_trace(), false, false);
}
BENCHMARK(BM_TraceImportCountOnly)->Unit(benchmark::kMillisecond);

void BM_TraceImportGzip(benchmark::State& state) {
  run(state, bench_trace_gz(), true, true);
}
BENCHMARK(BM_TraceImportGzip)->Unit(benchmark::kMillisecond);

void BM_TraceImportGzipCountOnly(benchmark::State& state) {
  run(state, bench_trace_gz(), false, false);
}
BENCHMARK(BM_TraceImportGzipCountOnly)->Unit(benchmark::kMillisecond);

std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// Heap kept by an imported trace of state.range(0) events (args text kept when range(1) is 1).
void BM_TraceImportMemory(benchmark::State& state) {
  const long n = static_cast<long>(state.range(0));
  const bool keep_args = state.range(1) != 0;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("slimpack_trace_bench_" + std::to_string(n) + ".json"))
                               .string();
  write_trace(path, ~std::size_t{0}, n);
  TraceImportOptions opt;
  opt.keep_args = keep_args;
  double per_event = 0.0, kept = 0.0, args_chars = 0.0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    malloc_trim(0);
    const std::size_t before = heap_in_use();
    auto t = std::make_unique<Expected<ImportedTrace>>(import_chrome_trace(path, opt));
    if (!*t) {
      state.SkipWithError((*t).error().message.c_str());
      break;
    }
    kept = static_cast<double>(heap_in_use() - before);
    per_event = kept / static_cast<double>((**t).events);
    bytes = (**t).bytes;
    args_chars = 0.0;
    for (const std::string& a : (**t).args) args_chars += static_cast<double>(a.size());
    benchmark::DoNotOptimize(t);
  }
  std::filesystem::remove(path);
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["bytes_per_event"] = per_event;
  state.counters["kept_MB"] = kept / 1e6;
  state.counters["args_chars_per_event"] = args_chars / static_cast<double>(n);
}
BENCHMARK(BM_TraceImportMemory)
    ->Args({1000000, 0})
    ->Args({1000000, 1})
    ->Args({10000000, 0})
    ->Args({10000000, 1})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace slimpack
