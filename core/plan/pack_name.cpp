#include "plan/pack_name.h"

namespace slimpack {

std::string pack_name(Pass pass, std::int32_t index) {
  return (pass == Pass::Forward ? "F" : "B") + std::to_string(pack_number(index));
}

}  // namespace slimpack
