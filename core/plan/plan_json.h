#pragma once
// Plan JSON (docs/design.md section 9, docs/file-formats-plan.md): "format": "slimpack-plan",
// version 1. Reading checks the structure of every field and segment (required fields, types, known
// sequences, 0 <= begin < end <= length, shard indices) and names the JSON path of the first
// problem, e.g.
// `$.forward_packs[3].segments[1].seq: unknown sequence "X7"`. Coverage and order (every token
// once, rules L1-L6) are the legality checker's job: call check_legality() on the result.
#include <nlohmann/json.hpp>

#include <string>

#include "common/status.h"
#include "plan/plan.h"

namespace slimpack {

inline constexpr const char* kPlanFormat = "slimpack-plan";
inline constexpr int kPlanVersion = 1;

Expected<Plan> plan_from_json(const nlohmann::json& j);
// Reads and parses a plan file; every error is prefixed with the path.
Expected<Plan> read_plan_file(const std::string& path);

// The plan as JSON: top-level forward_packs/backward_packs when d = 1, else "replicas".
// plan_from_json(plan_to_json(p)) gives p back.
nlohmann::json plan_to_json(const Plan& plan);
// Pretty-printed (2-space indent, keys in the documented order) with a trailing newline.
std::string plan_to_string(const Plan& plan);

}  // namespace slimpack
