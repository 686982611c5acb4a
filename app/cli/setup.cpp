#include "setup.h"

#include "cost/cost_json.h"
#include "cost/profile.h"

namespace slimpack::cli {

std::vector<OptionSpec> workload_options() {
  return {
      {"lengths", "FILE", "length file: CSV, JSON or JSONL (see docs/file-formats-lengths.md)"},
      {"column", "NAME", "column of a multi-column CSV / field of JSONL"},
      {"preset", "NAME", "length preset: chat-sft, long-sft-128k (default), long-tail-256k, uniform"},
      {"seed", "N", "sampling seed (default 42)"},
      {"batch-tokens", "N", "sample a batch of about N tokens (default 1048576 for presets)"},
      {"batch-count", "N", "sample a batch of N sequences"},
  };
}

std::vector<OptionSpec> config_options() {
  return {
      {"model", "NAME", "llama-2-7b, llama-3-8b (default), llama-3-70b, qwen2.5-32b, qwen2.5-72b"},
      {"gpu", "NAME", "a100-80g, h100-sxm (default), h200"},
      {"pp", "N", "pipeline stages p (default 4)"},
      {"dp", "N", "data-parallel replicas d (default 1)"},
      {"tp", "N", "tensor-parallel degree t (default 8)"},
      {"strategy", "NAME", "fixed, balanced, sliced, slimpack (default)"},
      {"slice", "N", "slice size S in tokens (0 = strategy default)"},
      {"packs", "N", "forward packs per replica (0 = auto)"},
      {"pack-tokens", "N", "token capacity C of a `fixed` pack (0 = auto)"},
      {"schedule", "NAME", "1f1b (default), gpipe, interleaved"},
      {"vchunks", "N", "virtual chunks for the interleaved schedule (default 2 when interleaved)"},
      {"memory-cap", "GB", "stage memory cap in GB (default: the GPU's memory)"},
      {"token-cap", "N", "maximum tokens in one pack (default: unlimited)"},
      {"costs", "FILE", "JSON overriding model, GPU, options or coefficients"},
      {"cost-profile", "FILE", "fitted cost profile (slimpack fit-costs) for the coefficients"},
      {"exact", "", "slimpack: solve phase 2 with the MILP (CBC)"},
      {"time-limit", "S", "slimpack: MILP time limit per replica in seconds (default 2)"},
      {"symmetric", "", "slimpack ablation: symmetric packs only"},
      {"no-dp-aware", "", "slimpack ablation: no DP-aware assignment"},
      {"no-dp-merge", "", "slimpack ablation: no DP-Merge of outliers"},
  };
}

namespace {

constexpr std::int64_t kPresetPoolSize = 65536;

Expected<std::int64_t> positive(const Args& args, const std::string& name, std::int64_t fallback,
                                std::int64_t min_value = 1) {
  auto v = args.get_int(name, fallback);
  if (!v) return v.error();
  if (*v < min_value)
    return Error::bad_input("--" + name + ": must be at least " + std::to_string(min_value) +
                            ", got " + std::to_string(*v));
  return v;
}

}  // namespace

Expected<Workload> load_workload(const Args& args, const std::optional<std::string>& file) {
  const std::optional<std::string> path = file ? file : args.get("lengths");
  if (path && args.has("preset"))
    return Error::bad_input("--lengths and --preset are exclusive: give one workload");
  auto seed = args.get_int("seed", static_cast<std::int64_t>(kDefaultSeed));
  if (!seed) return seed.error();
  auto budget = args.get_int("batch-tokens", 0);
  if (!budget) return budget.error();
  auto count = args.get_int("batch-count", 0);
  if (!count) return count.error();
  if (*budget < 0 || *count < 0)
    return Error::bad_input("--batch-tokens/--batch-count must not be negative");
  if (*budget > 0 && *count > 0)
    return Error::bad_input("--batch-tokens and --batch-count are exclusive");

  Workload w;
  LengthPool pool;
  const bool from_file = path.has_value();
  if (from_file) {
    auto p = read_length_file(*path, LengthFileOptions{args.get_or("column", "")});
    if (!p) return p.error();
    pool = std::move(*p);
    w.label = pool.source;
  } else {
    if (args.has("column")) return Error::bad_input("--column applies to --lengths files only");
    const std::string name = args.get_or("preset", kDefaultPreset);
    auto p = preset_pool(name, static_cast<std::uint64_t>(*seed), kPresetPoolSize);
    if (!p) return p.error();
    pool = std::move(*p);
    w.label = "preset " + name + ", seed " + std::to_string(*seed);
  }
  // A file is the batch unless a size is asked for; a preset is sampled to the default budget.
  if (from_file && *budget == 0 && *count == 0) {
    w.batch = batch_from_pool(pool);
    return w;
  }
  BatchSpec spec;
  spec.token_budget = (*budget == 0 && *count == 0) ? kDefaultBatchTokens : *budget;
  spec.count = *count;
  spec.seed = static_cast<std::uint64_t>(*seed);
  auto batch = sample_batch(pool, spec);
  if (!batch) return batch.error();
  w.batch = std::move(*batch);
  return w;
}

Expected<std::shared_ptr<const CostModel>> make_cost_model(const Args& args, std::string* model_name,
                                                           std::string* gpu_name,
                                                           std::optional<PlanShape> shape) {
  CostSetup setup;
  const std::string mname = args.get_or("model", "llama-3-8b");
  auto model = model_preset(mname);
  if (!model) return model.error().with_context("--model");
  const std::string gname = args.get_or("gpu", "h100-sxm");
  auto gpu = gpu_preset(gname);
  if (!gpu) return gpu.error().with_context("--gpu");
  setup.model = *model;
  setup.gpu = *gpu;
  auto pp = positive(args, "pp", 4);
  if (!pp) return pp.error();
  auto dp = positive(args, "dp", 1);
  if (!dp) return dp.error();
  auto tp = positive(args, "tp", 8);
  if (!tp) return tp.error();
  setup.par.pp = static_cast<int>(*pp);
  setup.par.dp = static_cast<int>(*dp);
  setup.par.tp = static_cast<int>(*tp);
  if (shape) {
    setup.par.pp = shape->pp;
    setup.par.dp = shape->dp;
  }
  auto params = make_params(args);
  if (!params) return params.error();
  setup.par.vchunks = params->schedule == ScheduleKind::Interleaved ? params->vchunks : 1;

  auto cap_gb = args.get_double("memory-cap", 0.0);
  if (!cap_gb) return cap_gb.error();
  if (*cap_gb < 0) return Error::bad_input("--memory-cap: must not be negative");
  setup.options.memory_cap_bytes = *cap_gb * 1e9;
  auto token_cap = args.get_int("token-cap", 0);
  if (!token_cap) return token_cap.error();
  if (*token_cap < 0) return Error::bad_input("--token-cap: must not be negative");
  setup.options.token_cap = *token_cap;

  if (auto path = args.get("costs")) {
    auto st = read_cost_overrides_file(*path, setup);
    if (!st) return st.error();
  }
  if (Status st = validate(setup.model, setup.par); !st) return st.error();

  auto cost = std::make_shared<CostModel>(setup.model, setup.gpu, setup.par, setup.options);
  if (setup.coeffs) cost->set_coeffs(*setup.coeffs);
  if (auto path = args.get("cost-profile")) {
    auto profile = read_cost_profile(*path);
    if (!profile) return profile.error();
    auto fitted = fit_profile(*profile);
    if (!fitted) return fitted.error().with_context(*path);
    cost->set_coeffs(coeffs_from_profile(*fitted, cost->coeffs()));
  }
  if (model_name) *model_name = setup.model.name.empty() ? mname : setup.model.name;
  if (gpu_name) *gpu_name = setup.gpu.name.empty() ? gname : setup.gpu.name;
  return std::shared_ptr<const CostModel>(std::move(cost));
}

Expected<StrategyParams> make_params(const Args& args) {
  StrategyParams p;
  auto slice = positive(args, "slice", 0, 0);
  if (!slice) return slice.error();
  p.slice_size = *slice;
  auto packs = positive(args, "packs", 0, 0);
  if (!packs) return packs.error();
  p.packs = static_cast<int>(*packs);
  auto cap = positive(args, "pack-tokens", 0, 0);
  if (!cap) return cap.error();
  p.pack_tokens = *cap;
  const std::string sched = args.get_or("schedule", "1f1b");
  if (!parse_schedule(sched, p.schedule))
    return Error::bad_input("--schedule: unknown schedule '" + sched +
                            "' (known: 1f1b, gpipe, interleaved)");
  auto v = positive(args, "vchunks", p.schedule == ScheduleKind::Interleaved ? 2 : 1);
  if (!v) return v.error();
  p.vchunks = static_cast<int>(*v);
  auto seed = args.get_int("seed", static_cast<std::int64_t>(kDefaultSeed));
  if (!seed) return seed.error();
  p.seed = static_cast<std::uint64_t>(*seed);
  auto limit = args.get_double("time-limit", 2.0);
  if (!limit) return limit.error();
  if (*limit <= 0) return Error::bad_input("--time-limit: must be positive");
  p.time_limit_s = *limit;
  p.exact = args.has("exact");
  p.asymmetric = !args.has("symmetric");
  p.dp_aware = !args.has("no-dp-aware");
  p.dp_merge = !args.has("no-dp-merge");
  return p;
}

Expected<RunSetup> make_setup(const Args& args) {
  RunSetup s;
  auto w = load_workload(args);
  if (!w) return w.error();
  s.workload = std::move(*w);
  auto cost = make_cost_model(args, &s.model_name, &s.gpu_name);
  if (!cost) return cost.error();
  s.cost = *cost;
  auto params = make_params(args);
  if (!params) return params.error();
  s.params = *params;
  s.strategy = args.get_or("strategy", "slimpack");
  return s;
}

}  // namespace slimpack::cli
