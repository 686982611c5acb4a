#pragma once
// Sequence-length distributions: loaded from files or drawn from seeded parametric presets, and
// batches sampled from them (docs/design.md section 7).
#include <cstdint>
#include <string>
#include <vector>

#include "common/sequence.h"
#include "common/status.h"

namespace slimpack {

// Upper bound on one sequence length accepted from any input (16M tokens): larger is an input
// error.
inline constexpr Tokens kMaxSequenceLength = Tokens{1} << 24;

struct LengthStats {
  std::int64_t count = 0;
  Tokens total_tokens = 0;
  Tokens min = 0;
  double median = 0.0;
  double mean = 0.0;
  double p99 = 0.0;
  Tokens max = 0;
};
// Percentiles by linear interpolation between closest ranks (numpy's default).
LengthStats compute_stats(const std::vector<Tokens>& lengths);

// A pool of lengths to sample batches from: the lengths of a file, or a preset's generator.
struct LengthPool {
  std::string source;           // file path or "preset:<name>"
  std::vector<Tokens> lengths;  // all lengths (a histogram file is expanded)
};

struct LengthFileOptions {
  std::string column;  // CSV column / JSONL field; empty = the only column / "length"
};
// CSV (one length a line, or length,count; optional single header line; --column for multi-column),
// JSON (array, {"lengths":[..]}, or histogram {"histogram":[{"length":L,"count":C},..]} /
// {"bins":...}), JSONL with a numeric field. Format by extension (.csv/.txt, .json, .jsonl).
// Errors name the file and the line (CSV/JSONL) or JSON path, and the reason.
Expected<LengthPool> read_length_file(const std::string& path, const LengthFileOptions& opt = {});

// The columns a multi-column length file offers for LengthFileOptions::column: a CSV's header
// names, or the numeric fields of a JSONL file's first record; empty for a file of one column or
// without a header. Lets the explorer ask which column holds the lengths (a production trace with
// "TIMESTAMP,ContextTokens,GeneratedTokens") instead of refusing the file.
Expected<std::vector<std::string>> length_file_columns(const std::string& path);

// Parametric presets: see length_preset_names() (long-tail-256k is an old name of
// short-heavy-tail).
std::vector<std::string> length_preset_names();
std::string length_preset_description(const std::string& name);
// Draws `count` lengths from the preset with the seed (deterministic across platforms: uses its own
// generator and distributions, not std:: distributions whose output is implementation-defined).
Expected<LengthPool> preset_pool(const std::string& name, std::uint64_t seed, std::int64_t count);

struct BatchSpec {
  Tokens token_budget = 0;  // sample until the total reaches this budget (0 = use count)
  std::int64_t count = 0;   // or this many sequences
  std::uint64_t seed = 1;
};
// Seeded sampling with replacement from the pool. Sequence ids are "s0", "s1", ... in sample order.
// The batch with a token budget stops at the first sequence that reaches or crosses the budget.
Expected<Batch> sample_batch(const LengthPool& pool, const BatchSpec& spec);
// Uses the pool's lengths as the batch directly (ids "s0"...).
Batch batch_from_pool(const LengthPool& pool);

// The default workload of the CLI and GUI: preset "long-sft-128k", seed 42, 1M-token batch.
inline constexpr const char* kDefaultPreset = "long-sft-128k";
inline constexpr std::uint64_t kDefaultSeed = 42;
inline constexpr Tokens kDefaultBatchTokens = 1 << 20;

}  // namespace slimpack
