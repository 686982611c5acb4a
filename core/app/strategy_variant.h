#pragma once
// Strategy variants for comparisons: "NAME[:key=value[:key=value...]]", e.g. `fixed:cp=2` or
// `fixed:recompute=full`. A variant is the base configuration with a few settings changed; the
// GPU count p * t * c * d stays that of the base, so a variant with CP degree c runs
// (d * c_base) / c replicas, and is not applicable when that is not a whole number.
#include <string>

#include "app/scenario.h"
#include "common/status.h"

namespace slimpack {

struct StrategyVariant {
  std::string label;     // the text as given ("fixed:cp=2")
  std::string strategy;  // "fixed"
  ConfigSpec config;     // base with the variant's settings applied
  // Non-empty when the variant cannot run at the base GPU count ("not applicable: ...").
  std::string not_applicable;
};

// Keys: cp, recompute, stage-layers, context, slice, packs, pack-tokens, tp, and slimpack's
// ablations asymmetric / dp-aware / dp-merge = on|off. Errors name the key and the value
// (BadInput); an unknown strategy name is an error too.
Expected<StrategyVariant> parse_strategy_variant(const std::string& text, const ConfigSpec& base);

}  // namespace slimpack
