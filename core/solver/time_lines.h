#pragma once
// Time estimates every solver ranks its choices with: the cost model's affine time of one pass
// on the bottleneck stage, and causal pairs of a token range.
#include <chrono>

#include "common/sequence.h"
#include "cost/cost_model.h"

namespace slimpack::solver_detail {

// Affine time of one pass on the bottleneck stage: c0 + per_token * N + per_pair * A. The cost
// model is affine in (tokens, pairs) per stage, so three evaluations recover it exactly and the hot
// loops of the solvers avoid virtual-free but branchy calls per item.
struct PassLine {
  double c0 = 0.0;
  double per_token = 0.0;
  double per_pair = 0.0;
  // Work of a segment without the per-pack constant.
  double work(double tokens, double pairs) const { return per_token * tokens + per_pair * pairs; }
};

struct TimeLines {
  PassLine fwd;
  PassLine bwd;
  int stage = 0;  // the stage the lines were taken from
};

// Lines of the slowest stage (the last one carries the LM head).
TimeLines time_lines(const CostModel& cost);

// Causal pairs of tokens [begin, end) of a sequence.
inline double pairs_of(Tokens begin, Tokens end) {
  const double l = static_cast<double>(end - begin);
  return l * static_cast<double>(begin) + l * (l + 1.0) / 2.0;
}

// Seconds since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace slimpack::solver_detail
