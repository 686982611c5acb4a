#include "app/config_options.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>

#include "cost/model_config.h"
#include "cost/recompute.h"
#include "cost/stage_split.h"
#include "plan/plan.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

// Parallel degrees and virtual chunks beyond this are typos or hostile files: the solver would
// allocate per stage (the plan reader and the cost model have the same cap).
constexpr std::int64_t kMaxParallel = 4096;
constexpr std::int64_t kMaxInt = INT_MAX;

using S = ScenarioSpec;
using V = OptionValue;

std::int64_t as_int(const V& v) {
  return std::get<std::int64_t>(v);
}
double as_number(const V& v) {
  return std::get<double>(v);
}
bool as_flag(const V& v) {
  return std::get<bool>(v);
}
const std::string& as_text(const V& v) {
  return std::get<std::string>(v);
}

std::vector<std::string> schedule_names() {
  return {schedule_name(ScheduleKind::OneFOneB), schedule_name(ScheduleKind::GPipe),
          schedule_name(ScheduleKind::Interleaved)};
}

// The parsers of core/cost name their value as a field ("recompute": "'most' is ..."); the table
// names the option itself, so only their reason is kept.
Status reason_of(const Error& e) {
  if (e.field.empty()) return e;
  return Error{e.kind, e.field_reason};
}

// Helpers for the table rows: an int / Tokens / double / string / bool member of the workload or
// the configuration.
#define SLIMPACK_INT(part, member)                                                 \
  .get = [](const S& s) -> V { return static_cast<std::int64_t>(s.part.member); }, \
  .set = [](S& s, const V& v) -> Status {                                          \
    s.part.member = static_cast<decltype(s.part.member)>(as_int(v));               \
    return {};                                                                     \
  }
#define SLIMPACK_NUMBER(part, member)                                                           \
  .get = [](const S& s) -> V { return s.part.member; }, .set = [](S& s, const V& v) -> Status { \
    s.part.member = as_number(v);                                                               \
    return {};                                                                                  \
  }
#define SLIMPACK_TEXT(part, member)                                                             \
  .get = [](const S& s) -> V { return s.part.member; }, .set = [](S& s, const V& v) -> Status { \
    s.part.member = as_text(v);                                                                 \
    return {};                                                                                  \
  }
// A flag whose CLI sense is the member's opposite (--symmetric clears `asymmetric`).
#define SLIMPACK_FLAG(part, member, negated)                         \
  .get = [](const S& s) -> V { return s.part.member != (negated); }, \
  .set = [](S& s, const V& v) -> Status {                            \
    s.part.member = as_flag(v) != (negated);                         \
    return {};                                                       \
  }

using K = OptionKind;
constexpr OptionSection W = OptionSection::Workload;
constexpr OptionSection C = OptionSection::Config;
constexpr OptionSection T = OptionSection::Traces;

std::vector<std::string> gpu_time_names() {
  return {"cpu", "flows"};
}

// "12.5,-3,0": one clock offset per trace file, microseconds.
Expected<std::vector<double>> parse_offsets(const std::string& text) {
  std::vector<double> out;
  std::size_t at = 0;
  while (at <= text.size() && !text.empty()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    double v = 0.0;
    const auto res = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || res.ec != std::errc() || res.ptr != item.data() + item.size() ||
        !std::isfinite(v))
      return Error::bad_input("'" + item + "' is not a number of microseconds");
    out.push_back(v);
    at = comma + 1;
  }
  return out;
}

std::string offsets_text(const std::vector<double>& offsets) {
  std::string out;
  for (double v : offsets) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out += (out.empty() ? "" : ",") + std::string(buf, res.ptr);
  }
  return out;
}

std::vector<ConfigOption> make_options() {
  std::vector<ConfigOption> o;
  // ---- workload
  o.push_back({.flag = "lengths",
               .section = W,
               .key = "file",
               .kind = K::Text,
               .value_name = "FILE",
               .help = "length file: CSV, JSON or JSONL (see docs/file-formats-lengths.md)",
               SLIMPACK_TEXT(workload, file)});
  o.push_back({.flag = "column",
               .section = W,
               .key = "column",
               .kind = K::Text,
               .value_name = "NAME",
               .help = "column of a multi-column CSV / field of JSONL",
               .fields = {"column"},
               SLIMPACK_TEXT(workload, column)});
  // Not a Choice: the preset reader also takes the old names of renamed presets.
  o.push_back({.flag = "preset",
               .section = W,
               .key = "preset",
               .kind = K::Text,
               .value_name = "NAME",
               .help = "length preset:",
               .help_after = "(long-tail-256k, the old name of short-heavy-tail, still works)",
               .choices = length_preset_names,
               SLIMPACK_TEXT(workload, preset)});
  o.push_back({.flag = "seed",
               .section = W,
               .key = "seed",
               .kind = K::Integer,
               .value_name = "N",
               .help = "sampling seed (default 42)",
               .min_int = 0,
               .sweepable = true,
               SLIMPACK_INT(workload, seed)});
  o.push_back({.flag = "batch-tokens",
               .section = W,
               .key = "batch_tokens",
               .kind = K::Integer,
               .value_name = "N",
               .help = "sample a batch of about N tokens (default 1048576 for presets)",
               .min_int = 0,
               .sweepable = true,
               .fields = {"batch tokens"},
               SLIMPACK_INT(workload, batch_tokens)});
  o.push_back({.flag = "batch-count",
               .section = W,
               .key = "batch_count",
               .kind = K::Integer,
               .value_name = "N",
               .help = "sample a batch of N sequences",
               .min_int = 0,
               .fields = {"batch count"},
               SLIMPACK_INT(workload, batch_count)});
  o.push_back({.flag = "batch-index",
               .section = W,
               .key = "batch_index",
               .kind = K::Integer,
               .value_name = "N",
               .help = "with --lengths: batch N (from 0) of the file cut in file order into "
                       "consecutive batches of the batch size, instead of a sampled batch (what "
                       "slimpack dataset names a file's batches by; -1 = sampled, the default)",
               .min_int = -1,
               .fields = {"batch index"},
               SLIMPACK_INT(workload, batch_index)});
  // ---- configuration
  o.push_back({.flag = "model",
               .section = C,
               .key = "model",
               .kind = K::Choice,
               .value_name = "NAME",
               .choices = model_preset_names,
               .noun = "model preset",
               .fields = {"model"},
               SLIMPACK_TEXT(config, model)});
  o.push_back({.flag = "hf-config",
               .section = C,
               .key = "hf_config",
               .kind = K::Text,
               .value_name = "FILE",
               .help = "a Hugging Face config.json (model_type llama, mistral or qwen2) as the "
                       "model, instead of --model (docs/user-guide.md, \"Your own model\")",
               SLIMPACK_TEXT(config, hf_config_file)});
  o.push_back({.flag = "gpu",
               .section = C,
               .key = "gpu",
               .kind = K::Choice,
               .value_name = "NAME",
               .choices = gpu_preset_names,
               .noun = "GPU preset",
               .fields = {"gpu"},
               SLIMPACK_TEXT(config, gpu)});
  o.push_back({.flag = "pp",
               .section = C,
               .key = "pp",
               .kind = K::Integer,
               .value_name = "N",
               .help = "pipeline stages p (default 4)",
               .min_int = 1,
               .max_int = kMaxParallel,
               .sweepable = true,
               .fields = {"parallel.pp"},
               SLIMPACK_INT(config, pp)});
  o.push_back({.flag = "dp",
               .section = C,
               .key = "dp",
               .kind = K::Integer,
               .value_name = "N",
               .help = "data-parallel replicas d (default 1)",
               .min_int = 1,
               .max_int = kMaxParallel,
               .sweepable = true,
               .fields = {"parallel.dp"},
               SLIMPACK_INT(config, dp)});
  o.push_back({.flag = "tp",
               .section = C,
               .key = "tp",
               .kind = K::Integer,
               .value_name = "N",
               .help = "tensor-parallel degree t (default 8)",
               .min_int = 1,
               .max_int = kMaxParallel,
               .sweepable = true,
               .fields = {"parallel.tp"},
               SLIMPACK_INT(config, tp)});
  o.push_back({.flag = "strategy",
               .section = C,
               .key = "strategy",
               .kind = K::Choice,
               .value_name = "NAME",
               .choices = strategy_names,
               .noun = "strategy",
               SLIMPACK_TEXT(config, strategy)});
  o.push_back({.flag = "slice",
               .section = C,
               .key = "slice_size",
               .kind = K::Integer,
               .value_name = "N",
               .help = "slice size S in tokens (0 = strategy default)",
               .sweepable = true,
               .fields = {"params.slice_size"},
               SLIMPACK_INT(config, slice_size)});
  o.push_back({.flag = "packs",
               .section = C,
               .key = "packs",
               .kind = K::Integer,
               .value_name = "N",
               .help = "forward packs per replica (0 = auto)",
               .max_int = kMaxInt,
               .sweepable = true,
               .fields = {"params.packs"},
               SLIMPACK_INT(config, packs)});
  o.push_back({.flag = "pack-tokens",
               .section = C,
               .key = "pack_tokens",
               .kind = K::Integer,
               .value_name = "N",
               .help = "token capacity C of a `fixed` pack (default: the context window)",
               .sweepable = true,
               .fields = {"params.pack_tokens"},
               SLIMPACK_INT(config, pack_tokens)});
  o.push_back({.flag = "context",
               .section = C,
               .key = "context",
               .kind = K::Integer,
               .value_name = "N",
               .help = "context window (Megatron --seq-length; default: the smallest power of two "
                       ">= the longest sample)",
               .fields = {"context", "params.context"},
               SLIMPACK_INT(config, context)});
  o.push_back({.flag = "recompute",
               .section = C,
               .key = "recompute",
               .kind = K::Text,
               .value_name = "MODE",
               .help =
                   "activation recompute: none, selective, full, auto (default: fewest layers per "
                   "stage that fit) or N layers per stage",
               .get = [](const S& s) -> V { return recompute_name(s.config.recompute); },
               .set = [](S& s, const V& v) -> Status {
                 auto r = parse_recompute(as_text(v));
                 if (!r) return reason_of(r.error());
                 s.config.recompute = *r;
                 return {};
               }});
  o.push_back({.flag = "cp",
               .section = C,
               .key = "cp",
               .kind = K::Integer,
               .value_name = "N",
               .help = "context-parallel degree c (default 1); GPUs = p * t * c * d",
               .min_int = 1,
               .max_int = kMaxParallel,
               .fields = {"cp", "parallel.cp"},
               SLIMPACK_INT(config, cp)});
  o.push_back(
      {.flag = "stage-layers",
       .section = C,
       .key = "stage_layers",
       .kind = K::Text,
       .value_name = "SPLIT",
       .help = "layers per stage: auto (default: balances the LM head), even, or a list such as "
               "7,8,8,9",
       .fields = {"parallel.stage_layers"},
       .get = [](const S& s) -> V { return stage_split_name(s.config.stage_split); },
       .set = [](S& s, const V& v) -> Status {
         auto split = parse_stage_split(as_text(v));
         if (!split) return reason_of(split.error());
         s.config.stage_split = *split;
         return {};
       }});
  o.push_back({.flag = "schedule",
               .section = C,
               .key = "schedule",
               .kind = K::Choice,
               .value_name = "NAME",
               .choices = schedule_names,
               .noun = "schedule",
               .fields = {"params.schedule"},
               .get = [](const S& s) -> V { return std::string(schedule_name(s.config.schedule)); },
               .set = [](S& s, const V& v) -> Status {
                 parse_schedule(as_text(v), s.config.schedule);  // checked against choices
                 return {};
               }});
  o.push_back({.flag = "vchunks",
               .section = C,
               .key = "vchunks",
               .kind = K::Integer,
               .value_name = "N",
               .help = "virtual chunks for the interleaved schedule (default 2)",
               .min_int = 1,
               .max_int = kMaxParallel,
               .fields = {"parallel.vchunks", "params.vchunks"},
               SLIMPACK_INT(config, vchunks)});
  o.push_back({.flag = "memory-cap",
               .section = C,
               .key = "memory_cap_gb",
               .kind = K::Number,
               .value_name = "GB",
               .help = "stage memory cap in GB (default: the GPU's memory)",
               .fields = {"memory cap"},
               SLIMPACK_NUMBER(config, memory_cap_gb)});
  o.push_back({.flag = "token-cap",
               .section = C,
               .key = "token_cap",
               .kind = K::Integer,
               .value_name = "N",
               .help = "maximum tokens in one pack (default: unlimited)",
               .fields = {"token cap"},
               SLIMPACK_INT(config, token_cap)});
  o.push_back({.flag = "costs",
               .section = C,
               .key = "cost_overrides_file",
               .kind = K::Text,
               .value_name = "FILE",
               .help = "JSON setting model, GPU, parallel, options or coefficients (an option "
                       "given on the command line wins over the file's field)",
               SLIMPACK_TEXT(config, cost_overrides_file)});
  o.push_back({.flag = "cost-profile",
               .section = C,
               .key = "cost_profile_file",
               .kind = K::Text,
               .value_name = "FILE",
               .help = "fitted cost profile (slimpack fit-costs) for the coefficients",
               SLIMPACK_TEXT(config, cost_profile_file)});
  o.push_back({.flag = "exact",
               .section = C,
               .key = "exact",
               .kind = K::Flag,
               .help = "slimpack: solve phase 2 with the MILP (CBC)",
               SLIMPACK_FLAG(config, exact, false)});
  o.push_back({.flag = "time-limit",
               .section = C,
               .key = "time_limit_s",
               .kind = K::Number,
               .value_name = "S",
               .help = "slimpack: MILP time limit per replica in seconds (default 2)",
               .number_exclusive = true,
               .fields = {"params.time_limit_s"},
               SLIMPACK_NUMBER(config, time_limit_s)});
  o.push_back({.flag = "symmetric",
               .section = C,
               .key = "asymmetric",
               .kind = K::Flag,
               .help = "slimpack ablation: symmetric packs only",
               .session_negated = true,
               SLIMPACK_FLAG(config, asymmetric, true)});
  o.push_back({.flag = "no-dp-aware",
               .section = C,
               .key = "dp_aware",
               .kind = K::Flag,
               .help = "slimpack ablation: no DP-aware assignment",
               .session_negated = true,
               SLIMPACK_FLAG(config, dp_aware, true)});
  o.push_back({.flag = "no-dp-merge",
               .section = C,
               .key = "dp_merge",
               .kind = K::Flag,
               .help = "slimpack ablation: no DP-Merge of outliers",
               .session_negated = true,
               SLIMPACK_FLAG(config, dp_merge, true)});
  // ---- traces (core/app/trace_run.h)
  o.push_back({.flag = "trace-rules",
               .section = T,
               .key = "rules",
               .kind = K::Text,
               .value_name = "NAME|FILE",
               .help = "which trace events are pack work: slimpack (default), pytorch, megatron, "
                       "dualpipe, torch-pp (PyTorch's pipeline runtime: PP:0F3 ranges) or a rules "
                       "JSON",
               SLIMPACK_TEXT(traces, rules)});
  o.push_back({.flag = "trace-lanes",
               .section = T,
               .key = "lanes",
               .kind = K::Text,
               .value_name = "FILE",
               .help = "lane -> stage mapping JSON (default: each file is one rank, rank = "
                       "replica * stages + stage; our exports by their thread names)",
               SLIMPACK_TEXT(traces, lanes_file)});
  o.push_back({.flag = "trace-align",
               .section = T,
               .key = "align_event",
               .kind = K::Text,
               .value_name = "NAME",
               .help = "align the rank files' clocks: each file's first event of this name is "
                       "time zero (default: the clocks are already aligned)",
               SLIMPACK_TEXT(traces, align_event)});
  o.push_back({.flag = "trace-offsets",
               .section = T,
               .key = "offsets_us",
               .kind = K::Text,
               .value_name = "US,US,...",
               .help = "or add these clock offsets (microseconds) to the files, in the order given",
               .get = [](const S& s) -> V { return offsets_text(s.traces.offsets_us); },
               .set = [](S& s, const V& v) -> Status {
                 auto offsets = parse_offsets(as_text(v));
                 if (!offsets) return offsets.error();
                 s.traces.offsets_us = std::move(*offsets);
                 return {};
               }});
  o.push_back(
      {.flag = "trace-gpu-time",
       .section = T,
       .key = "gpu_time",
       .kind = K::Choice,
       .value_name = "cpu|flows",
       .help = "a unit's time: its CPU range, or the span of the GPU kernels it launched "
               "(followed by ac2g or async_cpu_to_gpu flows):",
       .choices = gpu_time_names,
       .noun = "GPU time",
       .get = [](const S& s) -> V { return std::string(s.traces.gpu_flows ? "flows" : "cpu"); },
       .set = [](S& s, const V& v) -> Status {
         s.traces.gpu_flows = as_text(v) == "flows";
         return {};
       }});
  return o;
}

#undef SLIMPACK_INT
#undef SLIMPACK_NUMBER
#undef SLIMPACK_TEXT
#undef SLIMPACK_FLAG

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string number_text(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// The reason a value is refused, or empty when it is acceptable.
std::string range_reason(const ConfigOption& o, const OptionValue& v) {
  switch (o.kind) {
    case OptionKind::Integer: {
      const std::int64_t x = as_int(v);
      if (x < o.min_int)
        return (o.min_int == 0 ? std::string("must not be negative")
                               : "must be at least " + std::to_string(o.min_int)) +
               ", got " + std::to_string(x);
      if (x > o.max_int)
        return std::to_string(x) + " is more than the maximum " + std::to_string(o.max_int);
      return {};
    }
    case OptionKind::Number: {
      const double x = as_number(v);
      if (!std::isfinite(x)) return "expected a finite number";
      if (o.number_exclusive ? x <= o.min_number : x < o.min_number)
        return (o.min_number == 0.0
                    ? std::string(o.number_exclusive ? "must be positive" : "must not be negative")
                    : "must be at least " + number_text(o.min_number)) +
               ", got " + number_text(x);
      return {};
    }
    case OptionKind::Choice: {
      const auto names = o.choices();
      if (std::find(names.begin(), names.end(), as_text(v)) == names.end())
        return "unknown " + std::string(o.noun) + " '" + as_text(v) + "' (known: " + join(names) +
               ")";
      return {};
    }
    case OptionKind::Text:
    case OptionKind::Flag:
      return {};
  }
  return {};
}

bool value_fits_kind(OptionKind kind, const OptionValue& v) {
  switch (kind) {
    case OptionKind::Integer:
      return std::holds_alternative<std::int64_t>(v);
    case OptionKind::Number:
      return std::holds_alternative<double>(v);
    case OptionKind::Flag:
      return std::holds_alternative<bool>(v);
    case OptionKind::Text:
    case OptionKind::Choice:
      return std::holds_alternative<std::string>(v);
  }
  return false;
}

}  // namespace

const std::vector<ConfigOption>& scenario_options() {
  static const std::vector<ConfigOption> kOptions = make_options();
  return kOptions;
}

const std::vector<ConfigOption>& options_in(OptionSection section) {
  static const auto pick = [](OptionSection s) {
    std::vector<ConfigOption> out;
    for (const auto& o : scenario_options())
      if (o.section == s) out.push_back(o);
    return out;
  };
  static const std::vector<ConfigOption> kWorkload = pick(OptionSection::Workload);
  static const std::vector<ConfigOption> kConfig = pick(OptionSection::Config);
  static const std::vector<ConfigOption> kTraces = pick(OptionSection::Traces);
  return section == OptionSection::Workload ? kWorkload
         : section == OptionSection::Config ? kConfig
                                            : kTraces;
}

const ConfigOption* find_option(std::string_view flag) {
  for (const auto& o : scenario_options())
    if (o.flag == flag) return &o;
  return nullptr;
}

std::string cli_name(const ConfigOption& o) {
  return "--" + std::string(o.flag);
}

std::string session_name(const ConfigOption& o) {
  const char* part = o.section == OptionSection::Workload ? "$.workload."
                     : o.section == OptionSection::Config ? "$.config."
                                                          : "$.traces.";
  return std::string(part) + std::string(o.key);
}

std::string option_help(const ConfigOption& o) {
  std::string help(o.help);
  if (o.choices == nullptr) return help;
  ScenarioSpec defaults;
  defaults.config.strategy = default_strategy();
  const OptionValue def = o.get(defaults);
  std::string list;
  for (const auto& name : o.choices())
    list += (list.empty() ? "" : ", ") + name +
            (std::get<std::string>(def) == name ? " (default)" : "");
  std::string line = help.empty() ? list : help + " " + list;
  if (!o.help_after.empty()) line += " " + std::string(o.help_after);
  return line;
}

Expected<OptionValue> parse_option_text(const ConfigOption& o, const std::string& text,
                                        const std::string& name) {
  switch (o.kind) {
    case OptionKind::Integer: {
      std::int64_t v = 0;
      const char* b = text.data();
      const char* e = b + text.size();
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec != std::errc() || p != e || text.empty())
        return Error::bad_input(name + ": expected an integer, got '" + text + "'");
      return OptionValue{v};
    }
    case OptionKind::Number: {
      double v = 0.0;
      const char* b = text.data();
      const char* e = b + text.size();
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec != std::errc() || p != e || text.empty() || !std::isfinite(v))
        return Error::bad_input(name + ": expected a number, got '" + text + "'");
      return OptionValue{v};
    }
    case OptionKind::Flag:
      return OptionValue{true};
    case OptionKind::Text:
    case OptionKind::Choice:
      return OptionValue{text};
  }
  return Error::internal(name + ": unknown option kind");
}

std::string option_text(const ConfigOption& o, const OptionValue& v) {
  switch (o.kind) {
    case OptionKind::Integer:
      return std::to_string(as_int(v));
    case OptionKind::Number:
      return number_text(as_number(v));
    case OptionKind::Flag:
      return {};
    case OptionKind::Text:
    case OptionKind::Choice:
      return as_text(v);
  }
  return {};
}

Status set_option(const ConfigOption& o, ScenarioSpec& scenario, const OptionValue& value,
                  const std::string& name) {
  if (!value_fits_kind(o.kind, value))
    return Error::internal(name + ": value of the wrong type for the option");
  if (std::string reason = range_reason(o, value); !reason.empty())
    return Error::bad_input(name + ": " + reason);
  // A row sets its member through `get`'s twin: `set` is given for every row (the macros define
  // both), or the row's own parser.
  ScenarioSpec next = scenario;
  if (Status s = o.set(next, value); !s) return s.error().with_context(name);
  scenario = std::move(next);
  return {};
}

Error name_option_in(const Error& error, std::string (*naming)(const ConfigOption&)) {
  if (error.field.empty()) return error;
  for (const auto& o : scenario_options())
    for (std::string_view field : o.fields)
      if (error.field == field) {
        Error named = Error::bad_field(naming(o), error.field_reason);
        named.kind = error.kind;
        return named;
      }
  return error;
}

}  // namespace slimpack
