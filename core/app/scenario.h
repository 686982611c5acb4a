#pragma once
// A scenario is what a user asks for, as plain values: the workload (a length file or a preset, a
// seed, a batch size) and the configuration (model, GPU, parallelism, strategy and its parameters).
// The CLI fills it from options and the GUI from its panels; both turn it into a batch, a cost
// model and strategy parameters through the functions below, so both see the same batch and the
// same costs for the same inputs.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "cost/stage_split.h"
#include "plan/plan.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack {

// Size of the length pool drawn from a preset; batches are sampled from it.
inline constexpr std::int64_t kPresetPoolSize = 65536;

struct WorkloadSpec {
  std::string file;    // length file; empty = use `preset`
  std::string column;  // CSV column / JSONL field of a multi-column file
  std::string preset = kDefaultPreset;
  std::uint64_t seed = kDefaultSeed;
  // Token budget of the sampled batch. 0 with a file = the whole file is the batch; 0 with a
  // preset = kDefaultBatchTokens.
  Tokens batch_tokens = kDefaultBatchTokens;
  std::int64_t batch_count = 0;  // sample this many sequences instead of a token budget
  // A length file's batch N (from 0) of the file cut into consecutive batches of the size above
  // (workload/batch_cut.h) instead of a batch sampled by `seed`; -1 = sampled. What `slimpack
  // dataset` reports a file's worst batch by, so `simulate --batch-index N` shows it.
  std::int64_t batch_index = -1;

  bool operator==(const WorkloadSpec&) const = default;
  // The part that decides the pool: a file (and column), or a preset with its seed. The batch is
  // re-sampled from the same pool when only the budget (or a file's seed) changes.
  bool same_pool(const WorkloadSpec& o) const {
    return file == o.file && column == o.column &&
           (!file.empty() || (preset == o.preset && seed == o.seed));
  }
};

// Defaults: Llama-3-8B on H100-SXM with p=4, t=8 (long-context training without activation
// recompute needs t=8 for 128K-token samples to fit 80 GB), d=1, strategy slimpack.
struct ConfigSpec {
  std::string model = "llama-3-8b";
  // A Hugging Face config.json (cost/hf_config.h) that is the model instead of the preset `model`;
  // empty = the preset.
  std::string hf_config_file;
  std::string gpu = "h100-sxm";
  int pp = 4;
  int dp = 1;
  int tp = 8;
  std::string strategy = "slimpack";
  Tokens slice_size = 0;   // 0 = the strategy's automatic choice
  int packs = 0;           // 0 = auto
  Tokens pack_tokens = 0;  // `fixed` pack capacity C; 0 = the context window
  Tokens context = 0;      // context window; 0 = smallest power of two >= the longest sample
  RecomputeSpec recompute{RecomputeMode::Auto, 0};
  int cp = 1;                  // context-parallel degree c
  StageSplitSpec stage_split;  // auto by default
  ScheduleKind schedule = ScheduleKind::OneFOneB;
  int vchunks = 2;                  // interleaved only
  double memory_cap_gb = 0.0;       // 0 = the GPU's memory
  Tokens token_cap = 0;             // max tokens per pack; 0 = unlimited
  std::string cost_overrides_file;  // JSON overriding model, GPU, options or coefficients
  std::string cost_profile_file;    // fitted cost profile for the coefficients
  bool exact = false;               // slimpack: MILP phase 2
  double time_limit_s = 2.0;
  bool asymmetric = true;
  bool dp_aware = true;
  bool dp_merge = true;
  // The options the user set explicitly, as their flags ("tp"): a --costs file's field never
  // replaces them (core/app/cost_file_rule.h). The CLI: the options on its command line; search:
  // also the options it varies. Empty: the file's fields replace the values above (what a file is
  // for: values the user did not give).
  std::vector<std::string> given_options;

  bool operator==(const ConfigSpec&) const = default;
};

// How a measured run's traces (one file per rank) are read and held against a plan
// (core/app/trace_run.h). The explorer keeps it in the session's "traces" object.
struct TraceSpec {
  std::string rules = "slimpack";  // a built-in unit rule set or a rules JSON file
  std::string lanes_file;          // lane -> stage mapping JSON; empty: each file is one rank
  std::string align_event;         // each file's first event of this name is its time zero
  std::vector<double> offsets_us;  // or per-file clock offsets, in the order the files are given
  bool gpu_flows = false;          // unit time = its kernels' span, followed by ac2g flows
  bool operator==(const TraceSpec&) const = default;
};

// The strategy tools open with: `slimpack` when the solver knows it, else `sliced`.
std::string default_strategy();
// "preset long-sft-128k, seed 42" or the file path.
std::string workload_label(const WorkloadSpec& spec);

// Loads the pool the spec names, or returns `cached` when given (the caller checked same_pool).
Expected<std::shared_ptr<const LengthPool>> load_pool(
    const WorkloadSpec& spec, const std::shared_ptr<const LengthPool>& cached = nullptr);
// Samples the batch the spec asks for from the pool (see WorkloadSpec::batch_tokens).
Expected<Batch> make_batch(const LengthPool& pool, const WorkloadSpec& spec);
// The model the configuration names: its config.json when hf_config_file is set (errors name the
// file and its field), else the preset `model` (errors are about the field "model").
Expected<ModelConfig> scenario_model(const ConfigSpec& config);
// Builds and validates the cost model; errors name the field or file. `shape` replaces pp and dp
// when a plan file dictates them.
struct PlanShape {
  int pp = 0;
  int dp = 0;
};
// `batch`, when given, sets the attention density the automatic stage split weighs layers with.
Expected<std::shared_ptr<const CostModel>> make_cost_model(const ConfigSpec& config,
                                                           std::optional<PlanShape> shape = {},
                                                           const Batch* batch = nullptr);
StrategyParams make_strategy_params(const ConfigSpec& config, std::uint64_t seed);

}  // namespace slimpack
