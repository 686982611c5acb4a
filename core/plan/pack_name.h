#pragma once
// The one way packs are named for people: 1-based like the paper's F_1..F_Mf and B_1..B_Mb, so
// forward pack index 0 is "F1" (docs/file-formats-plan.md, "Pack indices and pack names"). Fields
// called `pack` in files and JSON are 0-based indices; every label, tooltip, message, trace event
// name and the ops CSV's `name` column goes through here, so the Gantt, the sequence inspector,
// the Chrome-trace export and the ops CSV call the same pack by the same name.
#include <cstdint>
#include <string>

#include "plan/plan.h"

namespace slimpack {

// The number people see for pack index `index` (0 -> 1).
constexpr std::int32_t pack_number(std::int32_t index) {
  return index + 1;
}

// "F1" for forward pack index 0, "B3" for backward pack index 2.
std::string pack_name(Pass pass, std::int32_t index);

}  // namespace slimpack
