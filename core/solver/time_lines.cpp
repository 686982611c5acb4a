#include "solver/time_lines.h"

#include <algorithm>

namespace slimpack::solver_detail {

TimeLines time_lines(const CostModel& cost) {
  // Evaluate at large arguments so the slopes keep full precision next to the constant.
  constexpr double kTok = 1e6;
  constexpr double kPairs = 1e12;
  TimeLines t;
  t.stage = std::max(0, cost.parallel().pp - 1);
  for (Pass pass : {Pass::Forward, Pass::Backward}) {
    PassLine& line = pass == Pass::Forward ? t.fwd : t.bwd;
    line.c0 = cost.time(pass, t.stage, 0.0, 0.0);
    line.per_token = (cost.time(pass, t.stage, kTok, 0.0) - line.c0) / kTok;
    line.per_pair = (cost.time(pass, t.stage, 0.0, kPairs) - line.c0) / kPairs;
  }
  return t;
}

}  // namespace slimpack::solver_detail
