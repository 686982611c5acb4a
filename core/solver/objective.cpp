#include "solver/objective.h"

#include <algorithm>

namespace slimpack::solver_detail {

double estimate_pack_time(const Pack& pack, const PassLine& line) {
  double t = line.c0;
  for (const Segment& s : pack.segments) {
    const double sh = std::max(1, s.shards);
    t += line.work(static_cast<double>(s.tokens()) / sh, pairs_of(s.begin, s.end) / sh);
  }
  return t;
}

void fill_objective(const Plan& plan, const TimeLines& lines, SolveStats& stats) {
  double objective = 0.0;
  double bound = 0.0;
  for (const auto& rp : plan.replicas) {
    double zf = 0.0, zb = 0.0, sum_f = 0.0, sum_b = 0.0, seg_f = 0.0;
    for (const Pack& p : rp.forward) {
      const double t = estimate_pack_time(p, lines.fwd);
      zf = std::max(zf, t);
      sum_f += t - lines.fwd.c0;
      for (const Segment& s : p.segments)
        seg_f = std::max(seg_f, lines.fwd.work(static_cast<double>(s.tokens()) / s.shards,
                                               pairs_of(s.begin, s.end) / s.shards));
    }
    for (const Pack& p : rp.backward) {
      const double t = estimate_pack_time(p, lines.bwd);
      zb = std::max(zb, t);
      sum_b += t - lines.bwd.c0;
      // A backward segment holds at least one slice; its smallest indivisible piece is unknown
      // here, so the bound uses the average only.
    }
    const double mf = std::max<std::size_t>(1, rp.forward.size());
    const double mb = std::max<std::size_t>(1, rp.backward.size());
    objective = std::max(objective, zf + zb);
    bound = std::max(bound, std::max(sum_f / mf, seg_f) + lines.fwd.c0 + sum_b / mb + lines.bwd.c0);
  }
  stats.objective = objective;
  stats.bound = std::min(bound, objective);
  stats.gap = objective > 0.0 ? (objective - stats.bound) / objective : 0.0;
}

}  // namespace slimpack::solver_detail
