#include "app/search_space.h"

#include <algorithm>
#include <cstdint>

#include "cost/model_config.h"
#include "solver/strategy.h"

namespace slimpack {
namespace {

std::vector<int> powers_of_two_upto(int limit) {
  std::vector<int> out;
  for (int v = 1; v <= limit; v *= 2) out.push_back(v);
  return out;
}

template <class T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

Status check_list(const std::vector<int>& values, const char* field, int lo, int hi,
                  const std::string& why_hi) {
  for (int v : values) {
    if (v < lo)
      return Error::bad_field(
          field, "must be at least " + std::to_string(lo) + ", got " + std::to_string(v));
    if (v > hi) return Error::bad_field(field, std::to_string(v) + " " + why_hi);
  }
  return {};
}

// The data-parallel degrees tried for one p * t * c: the list, or powers of two and the largest
// degree the budget allows.
std::vector<int> dp_values(const SearchSpace& s, int ptc) {
  if (!s.dp.empty()) return s.dp;
  const int most = s.gpus / ptc;
  std::vector<int> out = powers_of_two_upto(most);
  if (most >= 1 && (out.empty() || out.back() != most)) out.push_back(most);
  return out;
}

}  // namespace

std::vector<std::string> default_search_strategies() {
  std::vector<std::string> out;
  for (const auto& name : strategy_names())
    if (name == "fixed" || name == "slimpack") out.push_back(name);
  if (out.empty()) out.push_back(default_strategy());
  return out;
}

int shard_of(int index, int shards) {
  if (shards <= 1) return 0;
  std::uint64_t z = static_cast<std::uint64_t>(index) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<int>(z % static_cast<std::uint64_t>(shards));
}

std::string config_key(const SearchConfig& c) {
  return "p" + std::to_string(c.p) + "-t" + std::to_string(c.t) + "-c" + std::to_string(c.c) +
         "-d" + std::to_string(c.d) + "-S" + std::to_string(c.slice) + "-" +
         recompute_name(c.recompute) + "-" + schedule_name(c.schedule) + "-" + c.strategy;
}

std::string config_label(const SearchConfig& c) {
  return "p=" + std::to_string(c.p) + " t=" + std::to_string(c.t) + " c=" + std::to_string(c.c) +
         " d=" + std::to_string(c.d) +
         " S=" + (c.slice > 0 ? std::to_string(c.slice) : std::string("auto")) +
         " recompute=" + recompute_name(c.recompute) + " " + schedule_name(c.schedule) + " " +
         c.strategy;
}

ConfigSpec config_for(const ConfigSpec& base, const SearchConfig& c) {
  ConfigSpec out = base;
  out.pp = c.p;
  out.tp = c.t;
  out.cp = c.c;
  out.dp = c.d;
  out.slice_size = c.slice;
  out.recompute = c.recompute;
  out.schedule = c.schedule;
  out.strategy = c.strategy;
  // The point's settings are the search's, not a --costs file's (core/app/cost_file_rule.h).
  for (const char* flag : kSearchedOptions)
    if (std::find(out.given_options.begin(), out.given_options.end(), flag) ==
        out.given_options.end())
      out.given_options.emplace_back(flag);
  return out;
}

Expected<SearchSpace> resolve_space(const SearchSpace& space, const ConfigSpec& base) {
  SearchSpace s = space;
  if (s.gpus < 1) return Error::bad_field("gpus", "give the GPU budget, at least 1");
  if (s.min_gpus < 1) return Error::bad_field("min gpus", "must be at least 1");
  if (s.min_gpus > s.gpus)
    return Error::bad_field("min gpus",
                            "must not exceed the budget of " + std::to_string(s.gpus) + " GPUs");
  auto model = scenario_model(base);
  if (!model) return model.error();
  auto gpu = gpu_preset(base.gpu);
  if (!gpu) return Error::bad_field("gpu", gpu.error().message);
  if (s.gpus_per_node < 0) return Error::bad_field("gpus per node", "must be at least 1");
  if (s.gpus_per_node == 0) s.gpus_per_node = gpu->gpus_per_node;

  if (s.pp.empty()) s.pp = powers_of_two_upto(std::min(model->layers, s.gpus));
  if (s.tp.empty())
    for (int t : powers_of_two_upto(std::min(s.gpus_per_node, s.gpus)))
      if (model->heads % t == 0) s.tp.push_back(t);
  if (s.cp.empty()) s.cp = powers_of_two_upto(std::min(8, s.gpus));
  if (Status st = check_list(
          s.pp, "parallel.pp", 1, model->layers,
          "is more stages than the model's " + std::to_string(model->layers) + " layers");
      !st)
    return st.error();
  if (Status st = check_list(s.tp, "parallel.tp", 1, s.gpus_per_node,
                             "is more than the " + std::to_string(s.gpus_per_node) +
                                 " GPUs of a node (--gpus-per-node)");
      !st)
    return st.error();
  for (int t : s.tp)
    if (model->heads % t != 0)
      return Error::bad_field("parallel.tp", std::to_string(t) + " does not divide the model's " +
                                                 std::to_string(model->heads) + " heads");
  if (Status st = check_list(s.cp, "cp", 1, s.gpus, "is over the GPU budget"); !st)
    return st.error();
  if (Status st = check_list(s.dp, "parallel.dp", 1, s.gpus, "is over the GPU budget"); !st)
    return st.error();
  for (Tokens v : s.slices)
    if (v < 0) return Error::bad_field("params.slice_size", "must not be negative");
  if (s.slices.empty()) s.slices = {0};
  if (s.recompute.empty())
    s.recompute = {{RecomputeMode::None, 0},
                   {RecomputeMode::Selective, 0},
                   {RecomputeMode::Full, 0},
                   {RecomputeMode::Auto, 0}};
  if (s.schedules.empty()) s.schedules = {ScheduleKind::OneFOneB};
  if (s.strategies.empty()) s.strategies = default_search_strategies();
  for (const auto& name : s.strategies)
    if (!strategy_info(name)) {
      std::string known;
      for (const auto& n : strategy_names()) known += (known.empty() ? "" : ", ") + n;
      return Error::bad_field("strategy", "unknown strategy '" + name + "' (known: " + known + ")");
    }
  sort_unique(s.pp);
  sort_unique(s.tp);
  sort_unique(s.cp);
  sort_unique(s.dp);
  sort_unique(s.slices);
  return s;
}

Expected<std::vector<SearchConfig>> enumerate_space(const SearchSpace& space,
                                                    const ConfigSpec& base) {
  auto resolved = resolve_space(space, base);
  if (!resolved) return resolved.error();
  const SearchSpace& s = *resolved;
  std::vector<SearchConfig> out;
  for (int p : s.pp)
    for (int t : s.tp)
      for (int c : s.cp) {
        const long long ptc = static_cast<long long>(p) * t * c;
        if (ptc > s.gpus) continue;
        for (int d : dp_values(s, static_cast<int>(ptc))) {
          const long long n = ptc * d;
          if (n > s.gpus || n < s.min_gpus) continue;
          for (const auto& strategy : s.strategies) {
            const bool slices = strategy_info(strategy)->uses_slices;
            for (ScheduleKind schedule : s.schedules) {
              // Interleaving is for unsliced plans and needs two stages to interleave.
              if (schedule == ScheduleKind::Interleaved && (slices || p < 2)) continue;
              for (const RecomputeSpec& r : s.recompute) {
                const std::vector<Tokens> none{0};
                for (Tokens slice : slices ? s.slices : none)
                  out.push_back(SearchConfig{p, t, c, d, slice, r, schedule, strategy});
              }
            }
          }
        }
      }
  return out;
}

}  // namespace slimpack
