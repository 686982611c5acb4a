#include "setup.h"

#include <utility>

namespace slimpack::cli {

std::vector<OptionSpec> workload_options() {
  return {
      {"lengths", "FILE", "length file: CSV, JSON or JSONL (see docs/file-formats-lengths.md)"},
      {"column", "NAME", "column of a multi-column CSV / field of JSONL"},
      {"preset", "NAME",
       "length preset: chat-sft, long-sft-128k (default), short-heavy-tail (was long-tail-256k), "
       "long-256k, uniform"},
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
      {"pack-tokens", "N", "token capacity C of a `fixed` pack (default: the context window)"},
      {"context", "N",
       "context window (Megatron --seq-length; default: the smallest power of two >= the longest "
       "sample)"},
      {"recompute", "MODE",
       "activation recompute: none, selective, full, auto (default: fewest layers per stage that "
       "fit) or N layers per stage"},
      {"cp", "N", "context-parallel degree c (default 1); GPUs = p * t * c * d"},
      {"stage-layers", "SPLIT",
       "layers per stage: auto (default: balances the LM head), even, or a list such as 7,8,8,9"},
      {"schedule", "NAME", "1f1b (default), gpipe, interleaved"},
      {"vchunks", "N", "virtual chunks for the interleaved schedule (default 2)"},
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

Expected<std::int64_t> at_least(const Args& args, const std::string& name, std::int64_t fallback,
                                std::int64_t min_value) {
  auto v = args.get_int(name, fallback);
  if (!v) return v.error();
  if (*v < min_value)
    return Error::bad_input("--" + name + ": must be at least " + std::to_string(min_value) +
                            ", got " + std::to_string(*v));
  return v;
}

}  // namespace

Error as_option_error(const Error& e) {
  static const std::pair<const char*, const char*> kFields[] = {
      {"model: ", "--model: "},
      {"gpu: ", "--gpu: "},
      {"memory cap: ", "--memory-cap: "},
      {"token cap: ", "--token-cap: "},
      {"batch tokens: ", "--batch-tokens: "},
      {"batch count: ", "--batch-count: "},
      {"column: ", "--column: "},
      {"cp: ", "--cp: "},
      {"context: ", "--context: "},
      {"parallel.stage_layers: ", "--stage-layers: "},
      {"parallel.cp: ", "--cp: "},
      {"params.context: ", "--context: "}};
  for (const auto& [field, option] : kFields) {
    const std::string prefix = field;
    if (e.message.rfind(prefix, 0) == 0)
      return Error{e.kind, option + e.message.substr(prefix.size())};
  }
  return e;
}

Expected<WorkloadSpec> workload_spec(const Args& args, const std::optional<std::string>& file) {
  WorkloadSpec w;
  const std::optional<std::string> path = file ? file : args.get("lengths");
  if (path && args.has("preset"))
    return Error::bad_input("--lengths and --preset are exclusive: give one workload");
  if (!path && args.has("column"))
    return Error::bad_input("--column applies to --lengths files only");
  if (path) w.file = *path;
  w.column = args.get_or("column", "");
  w.preset = args.get_or("preset", kDefaultPreset);
  auto seed = at_least(args, "seed", static_cast<std::int64_t>(kDefaultSeed), 0);
  if (!seed) return seed.error();
  w.seed = static_cast<std::uint64_t>(*seed);
  auto budget = at_least(args, "batch-tokens", 0, 0);
  if (!budget) return budget.error();
  auto count = at_least(args, "batch-count", 0, 0);
  if (!count) return count.error();
  if (*budget > 0 && *count > 0)
    return Error::bad_input("--batch-tokens and --batch-count are exclusive");
  // Presets default to kDefaultBatchTokens; files are the batch unless a size is given.
  w.batch_tokens =
      *budget > 0 ? *budget : (w.file.empty() && *count == 0 ? kDefaultBatchTokens : 0);
  w.batch_count = *count;
  return w;
}

Expected<ConfigSpec> config_spec(const Args& args) {
  ConfigSpec c;
  c.model = args.get_or("model", c.model);
  c.gpu = args.get_or("gpu", c.gpu);
  auto pp = at_least(args, "pp", c.pp, 1);
  if (!pp) return pp.error();
  auto dp = at_least(args, "dp", c.dp, 1);
  if (!dp) return dp.error();
  auto tp = at_least(args, "tp", c.tp, 1);
  if (!tp) return tp.error();
  c.pp = static_cast<int>(*pp);
  c.dp = static_cast<int>(*dp);
  c.tp = static_cast<int>(*tp);
  c.strategy = args.get_or("strategy", default_strategy());
  auto slice = at_least(args, "slice", 0, 0);
  if (!slice) return slice.error();
  c.slice_size = *slice;
  auto packs = at_least(args, "packs", 0, 0);
  if (!packs) return packs.error();
  c.packs = static_cast<int>(*packs);
  auto cap = at_least(args, "pack-tokens", 0, 0);
  if (!cap) return cap.error();
  c.pack_tokens = *cap;
  auto context = at_least(args, "context", 0, 0);
  if (!context) return context.error();
  c.context = *context;
  auto cp = at_least(args, "cp", 1, 1);
  if (!cp) return cp.error();
  c.cp = static_cast<int>(*cp);
  if (auto text = args.get("recompute")) {
    auto r = parse_recompute(*text);
    if (!r) return Error::bad_input("--" + r.error().message);
    c.recompute = *r;
  }
  if (auto text = args.get("stage-layers")) {
    auto split = parse_stage_split(*text);
    if (!split)
      return Error::bad_input("--stage-layers: " +
                              split.error().message.substr(std::string("stage layers: ").size()));
    c.stage_split = *split;
  }
  const std::string sched = args.get_or("schedule", "1f1b");
  if (!parse_schedule(sched, c.schedule))
    return Error::bad_input("--schedule: unknown schedule '" + sched +
                            "' (known: 1f1b, gpipe, interleaved)");
  auto v = at_least(args, "vchunks", c.vchunks, 1);
  if (!v) return v.error();
  c.vchunks = static_cast<int>(*v);
  auto cap_gb = args.get_double("memory-cap", 0.0);
  if (!cap_gb) return cap_gb.error();
  if (*cap_gb < 0) return Error::bad_input("--memory-cap: must not be negative");
  c.memory_cap_gb = *cap_gb;
  auto token_cap = at_least(args, "token-cap", 0, 0);
  if (!token_cap) return token_cap.error();
  c.token_cap = *token_cap;
  c.cost_overrides_file = args.get_or("costs", "");
  c.cost_profile_file = args.get_or("cost-profile", "");
  auto limit = args.get_double("time-limit", c.time_limit_s);
  if (!limit) return limit.error();
  if (*limit <= 0) return Error::bad_input("--time-limit: must be positive");
  c.time_limit_s = *limit;
  c.exact = args.has("exact");
  c.asymmetric = !args.has("symmetric");
  c.dp_aware = !args.has("no-dp-aware");
  c.dp_merge = !args.has("no-dp-merge");
  return c;
}

Expected<Workload> load_workload(const Args& args, const std::optional<std::string>& file) {
  auto spec = workload_spec(args, file);
  if (!spec) return spec.error();
  auto pool = load_pool(*spec);
  if (!pool) return as_option_error(pool.error());
  auto batch = make_batch(**pool, *spec);
  if (!batch) return as_option_error(batch.error());
  return Workload{std::move(*batch), workload_label(*spec)};
}

Expected<RunSetup> make_setup(const Args& args) {
  RunSetup s;
  auto workload = workload_spec(args);
  if (!workload) return workload.error();
  s.workload_spec = *workload;
  auto config = config_spec(args);
  if (!config) return config.error();
  s.config = *config;
  auto prepared = prepare_scenario(s.workload_spec, s.config);
  if (!prepared) return as_option_error(prepared.error());
  s.workload = Workload{std::move(prepared->batch), prepared->label};
  s.cost = prepared->inputs.cost;
  s.params = prepared->inputs.params;
  s.model_name = s.config.model;
  s.gpu_name = s.config.gpu;
  s.strategy = s.config.strategy;
  return s;
}

}  // namespace slimpack::cli
