#include "common/status.h"

namespace slimpack {

const char* limit_name(Limit limit) {
  switch (limit) {
    case Limit::StageMemory:
      return "stage memory";
    case Limit::TokenCap:
      return "token cap";
    case Limit::StaticMemory:
      return "static memory";
    case Limit::Solver:
      return "solver";
  }
  return "solver";
}

}  // namespace slimpack
