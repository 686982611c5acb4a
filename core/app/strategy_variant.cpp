#include "app/strategy_variant.h"

#include <algorithm>
#include <charconv>

namespace slimpack {
namespace {

Expected<long long> whole(const std::string& key, const std::string& value, long long min_value) {
  long long v = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || v < min_value)
    return Error::bad_input(key + "=" + value + ": expected a whole number of at least " +
                            std::to_string(min_value));
  return v;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

}  // namespace

Expected<StrategyVariant> parse_strategy_variant(const std::string& text, const ConfigSpec& base) {
  StrategyVariant v;
  v.label = text;
  v.config = base;
  const std::vector<std::string> parts = split(text, ':');
  v.strategy = parts.front();
  bool known = false;
  for (const auto& name : strategy_names()) known = known || name == v.strategy;
  if (!known) {
    std::string names;
    for (const auto& name : strategy_names()) names += (names.empty() ? "" : ", ") + name;
    return Error::bad_input("strategy variant '" + text + "': unknown strategy '" + v.strategy +
                            "' (known: " + names + ")");
  }
  v.config.strategy = v.strategy;
  auto fail = [&](const Error& e) {
    return Error::bad_input("strategy variant '" + text + "': " + e.message);
  };
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const std::size_t eq = parts[k].find('=');
    if (eq == std::string::npos)
      return fail(Error::bad_input("'" + parts[k] + "' is not key=value"));
    const std::string key = parts[k].substr(0, eq), value = parts[k].substr(eq + 1);
    if (key == "recompute") {
      auto r = parse_recompute(value);
      if (!r) return fail(r.error());
      v.config.recompute = *r;
    } else if (key == "stage-layers") {
      auto s = parse_stage_split(value);
      if (!s) return fail(s.error());
      v.config.stage_split = *s;
    } else if (key == "cp" || key == "tp" || key == "packs") {
      auto n = whole(key, value, 1);
      if (!n) return fail(n.error());
      (key == "cp"   ? v.config.cp
       : key == "tp" ? v.config.tp
                     : v.config.packs) = static_cast<int>(*n);
    } else if (key == "context" || key == "slice" || key == "pack-tokens") {
      auto n = whole(key, value, 0);
      if (!n) return fail(n.error());
      (key == "context" ? v.config.context
       : key == "slice" ? v.config.slice_size
                        : v.config.pack_tokens) = *n;
    } else if (key == "asymmetric" || key == "dp-aware" || key == "dp-merge") {
      // slimpack's ablations: on / off.
      if (value != "on" && value != "off")
        return fail(Error::bad_input(key + "=" + value + ": expected on or off"));
      (key == "asymmetric" ? v.config.asymmetric
       : key == "dp-aware" ? v.config.dp_aware
                           : v.config.dp_merge) = value == "on";
    } else {
      return fail(Error::bad_input("unknown key '" + key +
                                   "' (known: cp, recompute, stage-layers, context, slice, packs, "
                                   "pack-tokens, tp, asymmetric, dp-aware, dp-merge)"));
    }
  }
  // The variant's settings are given: a --costs file's field does not replace them
  // (core/app/cost_file_rule.h).
  const auto give = [&](const std::string& flag) {
    if (std::find(v.config.given_options.begin(), v.config.given_options.end(), flag) ==
        v.config.given_options.end())
      v.config.given_options.push_back(flag);
  };
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const std::string key = parts[k].substr(0, parts[k].find('='));
    if (key == "cp" || key == "tp" || key == "recompute" || key == "stage-layers") give(key);
    if (key == "cp" || key == "tp") give("dp");
  }
  // Hold p * t * c * d fixed: CP and TP degrees trade against data-parallel replicas.
  const long long gpus_per_stage = static_cast<long long>(base.tp) * base.cp * base.dp;
  const long long per_replica = static_cast<long long>(v.config.tp) * v.config.cp;
  if (gpus_per_stage % per_replica != 0) {
    v.not_applicable = v.config.tp == base.tp
                           ? "not applicable: needs d divisible by c (d = " +
                                 std::to_string(static_cast<long long>(base.dp) * base.cp) +
                                 ", c = " + std::to_string(v.config.cp) + ")"
                           : "not applicable: needs t*c*d = " + std::to_string(gpus_per_stage) +
                                 " divisible by t*c = " + std::to_string(per_replica);
  } else {
    v.config.dp = static_cast<int>(gpus_per_stage / per_replica);
  }
  return v;
}

}  // namespace slimpack
