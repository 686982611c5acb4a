#include "app/scenario.h"

#include "app/cost_file_rule.h"
#include "cost/cost_json.h"
#include "cost/hf_config.h"
#include "cost/model_config.h"
#include "cost/profile.h"
#include "workload/batch_cut.h"

namespace slimpack {

std::string default_strategy() {
  for (const auto& name : strategy_names())
    if (name == "slimpack") return name;
  return "sliced";
}

std::string workload_label(const WorkloadSpec& spec) {
  if (!spec.file.empty())
    return spec.batch_index >= 0 ? spec.file + ", batch " + std::to_string(spec.batch_index)
                                 : spec.file;
  return "preset " + spec.preset + ", seed " + std::to_string(spec.seed);
}

Expected<std::shared_ptr<const LengthPool>> load_pool(
    const WorkloadSpec& spec, const std::shared_ptr<const LengthPool>& cached) {
  if (cached) return cached;
  if (!spec.file.empty()) {
    auto pool = read_length_file(spec.file, LengthFileOptions{spec.column});
    if (!pool) return pool.error();
    return std::shared_ptr<const LengthPool>(std::make_shared<LengthPool>(std::move(*pool)));
  }
  auto pool = preset_pool(spec.preset, spec.seed, kPresetPoolSize);
  if (!pool) return pool.error();
  return std::shared_ptr<const LengthPool>(std::make_shared<LengthPool>(std::move(*pool)));
}

namespace {

// Batch `batch_index` of the file cut into consecutive batches (workload/batch_cut.h).
Expected<Batch> file_batch(const LengthPool& pool, const WorkloadSpec& spec) {
  if (spec.file.empty())
    return Error::bad_field("batch index",
                            "picks a batch of a length file; a preset's batches are picked by the "
                            "seed");
  BatchSpec bs;
  bs.token_budget = spec.batch_tokens;
  bs.count = spec.batch_tokens > 0 ? 0 : spec.batch_count;
  auto ranges = cut_pool(pool, bs);
  if (!ranges) return ranges.error();
  const auto n = static_cast<std::int64_t>(ranges->size());
  if (spec.batch_index >= n)
    return Error::bad_field("batch index", "the file has " + std::to_string(n) +
                                               (n == 1 ? " batch" : " batches") +
                                               " of this size (0.." + std::to_string(n - 1) +
                                               "), got " + std::to_string(spec.batch_index));
  return batch_of_range(pool, (*ranges)[static_cast<std::size_t>(spec.batch_index)]);
}

}  // namespace

Expected<Batch> make_batch(const LengthPool& pool, const WorkloadSpec& spec) {
  if (spec.batch_tokens < 0) return Error::bad_field("batch tokens", "must not be negative");
  if (spec.batch_count < 0) return Error::bad_field("batch count", "must not be negative");
  if (spec.batch_tokens > 0 && spec.batch_count > 0)
    return Error::bad_input("batch tokens and batch count are exclusive: give one");
  if (spec.batch_index >= 0) return file_batch(pool, spec);
  // A file is the batch unless a size is asked for; a preset is sampled to the default budget.
  if (!spec.file.empty() && spec.batch_tokens == 0 && spec.batch_count == 0)
    return batch_from_pool(pool);
  BatchSpec bs;
  bs.count = spec.batch_count;
  bs.token_budget = spec.batch_count > 0    ? 0
                    : spec.batch_tokens > 0 ? spec.batch_tokens
                                            : kDefaultBatchTokens;
  bs.seed = spec.seed;
  return sample_batch(pool, bs);
}

Expected<ModelConfig> scenario_model(const ConfigSpec& config) {
  if (!config.hf_config_file.empty()) return load_hf_config(config.hf_config_file);
  auto model = model_preset(config.model);
  if (!model) return Error::bad_field("model", model.error().message);
  return model;
}

Expected<std::shared_ptr<const CostModel>> make_cost_model(const ConfigSpec& config,
                                                           std::optional<PlanShape> shape,
                                                           const Batch* batch) {
  CostSetup setup;
  auto model = scenario_model(config);
  if (!model) return model.error();
  auto gpu = gpu_preset(config.gpu);
  if (!gpu) return Error::bad_field("gpu", gpu.error().message);
  setup.model = *model;
  setup.gpu = *gpu;
  if (config.memory_cap_gb < 0) return Error::bad_field("memory cap", "must not be negative");
  if (config.token_cap < 0) return Error::bad_field("token cap", "must not be negative");
  if (config.context < 0) return Error::bad_field("context", "must not be negative");
  setup.par.pp = shape ? shape->pp : config.pp;
  setup.par.dp = shape ? shape->dp : config.dp;
  setup.par.tp = config.tp;
  if (config.cp < 1) return Error::bad_field("cp", "must be at least 1");
  setup.par.cp = config.cp;
  setup.par.stage_layers = config.stage_split.explicit_layers;
  setup.options.stage_split = config.stage_split.is_auto ? StageSplit::Auto : StageSplit::Even;
  setup.options.recompute = config.recompute;
  // What a real H100 run pays and the plain model of docs/design.md section 3 leaves out
  // (overridable in a --costs file's "options"): TP all-gathers / reduce-scatters partly
  // overlapped, and the lower efficiency of short query blocks (fitted to docs/profiling.md).
  setup.options.tp_comm_exposed = kScenarioTpCommExposed;
  setup.options.short_query_tokens = kScenarioShortQueryTokens;
  if (batch != nullptr && !batch->sequences.empty()) {
    double tokens = 0.0, pairs = 0.0;
    for (const Sequence& seq : batch->sequences) {
      const double n = static_cast<double>(seq.length);
      tokens += n;
      pairs += n * (n + 1.0) / 2.0;
    }
    setup.options.split_pairs_per_token = pairs / tokens;
  }
  setup.par.vchunks = config.schedule == ScheduleKind::Interleaved ? config.vchunks : 1;
  setup.options.memory_cap_bytes = config.memory_cap_gb * 1e9;
  setup.options.token_cap = config.token_cap;
  // The file's fields fill what the user did not give; a given option wins over its field, and a
  // plan file's stages and replicas over parallel.pp / parallel.dp (core/app/cost_file_rule.h).
  const std::vector<std::string> fixed_by_plan =
      shape ? std::vector<std::string>{"parallel.pp", "parallel.dp"} : std::vector<std::string>{};
  if (Status st = apply_cost_file(config, setup, fixed_by_plan); !st) return st.error();
  auto cost = cost_model_from_setup(setup);
  if (!cost) return cost.error();
  auto shared = std::make_shared<CostModel>(std::move(*cost));
  if (!config.cost_profile_file.empty()) {
    auto profile = read_cost_profile(config.cost_profile_file);
    if (!profile) return profile.error();
    auto fitted = fit_profile(*profile);
    if (!fitted) return fitted.error().with_context(config.cost_profile_file);
    shared->set_coeffs(coeffs_from_profile(*fitted, shared->coeffs()));
  }
  return std::shared_ptr<const CostModel>(std::move(shared));
}

StrategyParams make_strategy_params(const ConfigSpec& config, std::uint64_t seed) {
  StrategyParams p;
  p.slice_size = config.slice_size;
  p.packs = config.packs;
  p.pack_tokens = config.pack_tokens;
  p.context = config.context;
  p.schedule = config.schedule;
  p.vchunks = config.schedule == ScheduleKind::Interleaved ? config.vchunks : 1;
  p.seed = seed;
  p.time_limit_s = config.time_limit_s;
  p.exact = config.exact;
  p.asymmetric = config.asymmetric;
  p.dp_aware = config.dp_aware;
  p.dp_merge = config.dp_merge;
  return p;
}

}  // namespace slimpack
