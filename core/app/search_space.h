#pragma once
// The configurations `slimpack search` tries (docs/search.md): p x t x c x d within a GPU budget,
// slice size, recompute, schedule and strategy, each bounded by a list. The enumeration order is
// canonical (nested loops in the order of SearchConfig's fields), so an index names the same
// configuration in every run, shard and merge.
#include <string>
#include <vector>

#include "app/scenario.h"
#include "common/status.h"

namespace slimpack {

struct SearchSpace {
  int gpus = 0;           // the budget N: p * t * c * d <= N (required)
  int min_gpus = 1;       // and >= this
  int gpus_per_node = 0;  // t within a node; 0 = the GPU preset's
  // Empty = automatic: p, t, c and d powers of two (p <= layers, t <= gpus_per_node and dividing
  // the heads, c <= 8; d also the largest that fits the budget when that is not a power of two).
  std::vector<int> pp, tp, cp, dp;
  std::vector<Tokens> slices;            // empty = {0}: the strategy's own choice
  std::vector<RecomputeSpec> recompute;  // empty = none, selective, full, auto
  std::vector<ScheduleKind> schedules;   // empty = 1f1b
  std::vector<std::string> strategies;   // empty = default_search_strategies()
  bool operator==(const SearchSpace&) const = default;
};

// One point of the space.
struct SearchConfig {
  int p = 1, t = 1, c = 1, d = 1;
  Tokens slice = 0;  // 0 = the strategy's choice (always 0 for a strategy without slices)
  RecomputeSpec recompute{RecomputeMode::Auto, 0};
  ScheduleKind schedule = ScheduleKind::OneFOneB;
  std::string strategy;
  int gpus() const { return p * t * c * d; }
  bool operator==(const SearchConfig&) const = default;
};

// slimpack and the Megatron-faithful baseline: {"fixed", "slimpack"} (those the solver knows).
std::vector<std::string> default_search_strategies();

// "p4-t8-c1-d2-S0-auto-1f1b-slimpack": unique within a space, what shard files are keyed by.
std::string config_key(const SearchConfig& config);
// "p=4 t=8 c=1 d=2 S=auto recompute=auto 1f1b slimpack", for people.
std::string config_label(const SearchConfig& config);

// The shard (0 .. shards - 1) a configuration belongs to: a fixed hash of its index (splitmix64),
// so that each shard gets a mix of the space. Plain `index % shards` would give a shard one
// strategy and recompute mode whenever `shards` divides their product.
int shard_of(int index, int shards);

// The options a point sets (given options: a --costs file's field never replaces them).
inline constexpr const char* kSearchedOptions[] = {"pp",    "tp",        "cp",       "dp",
                                                   "slice", "recompute", "schedule", "strategy"};

// The base configuration with the point's settings (model, GPU, caps and costs from the base).
ConfigSpec config_for(const ConfigSpec& base, const SearchConfig& config);

// Every configuration of the space, in canonical order; errors name the bad bound ("--gpus: ...").
// `base` gives the model (layers, heads) and the GPU (gpus per node).
Expected<std::vector<SearchConfig>> enumerate_space(const SearchSpace& space,
                                                    const ConfigSpec& base);

// The space with its automatic lists filled in (what a result file records).
Expected<SearchSpace> resolve_space(const SearchSpace& space, const ConfigSpec& base);

}  // namespace slimpack
