#pragma once
// The cost setup as JSON: every named constant of the cost model can be overridden from a file
// (docs/design.md section 3, "all constants are named, documented, overridable from JSON"). Unknown
// keys are errors naming their JSON path, so a typo never silently leaves a default in place.
//
//   { "model": "llama-3-8b" | {"preset": "llama-3-8b", "hidden": 4096, ...},
//     "gpu": "h100-sxm" | {"preset": "h100-sxm", "peak_flops": 989e12, ...},
//     "parallel": {"pp": 4, "dp": 2, "tp": 1, "vchunks": 1},
//     "options": {"memory_cap_bytes": 0, "token_cap": 0, "include_head": true, ...},
//     "coeffs": {"forward": {"kappa": .., "alpha": .., "beta": ..}, "backward": {..},
//                "head_forward_per_token": .., "head_backward_per_token": .., "provenance": ".."} }
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "common/status.h"
#include "cost/cost_model.h"

namespace slimpack {

struct CostSetup {
  ModelConfig model;
  GpuSpec gpu;
  ParallelConfig par;
  CostOptions options;
  // Explicit coefficients; std::nullopt = derive them from FLOPs of `model` on `gpu`.
  std::optional<CostCoeffs> coeffs;
};

// Applies the overrides in `j` to `setup`. All or nothing: on error `setup` is unchanged. `source`
// prefixes error messages (a file name) and names the provenance of overridden coefficients.
// A partial "coeffs" object starts from the current coefficients (or the FLOP-derived ones).
Status apply_cost_overrides(const nlohmann::json& j, CostSetup& setup, const std::string& source);

// Reads a JSON file and applies it to `setup` (all or nothing); errors name the file.
Status read_cost_overrides_file(const std::string& path, CostSetup& setup);

// Every field of the setup (round-trips through apply_cost_overrides).
nlohmann::json to_json(const CostSetup& setup);

// A validated cost model of the setup, with its explicit coefficients when present.
Expected<CostModel> cost_model_from_setup(const CostSetup& setup);

}  // namespace slimpack
