// solve_phase2_milp: the model, the warm start and the checks, with COIN-OR CBC in a shared module
// loaded on the first solve (milp_loader.h), so that programs do not link CBC. Without CBC
// (SLIMPACK_ENABLE_MILP=OFF), or when the module cannot be loaded, the function says so, so callers
// need no #ifdef of their own.
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "solver/milp/milp_loader.h"
#include "solver/milp/milp_model.h"
#include "solver/milp/milp_phase2.h"

namespace slimpack {

bool milp_available() {
  return milp_detail::milp_module() != nullptr;
}

std::string milp_unavailable_reason() {
  std::string why;
  return milp_detail::milp_module(&why) != nullptr ? std::string() : why;
}

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kSmallFactorRows = 1000;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// What the module polls: stops at CBC's next event once the token fires or the wall-clock deadline
// passes, and reports progress as the share of the time limit used (throttled to ~20 updates/s).
struct SolveClock {
  const CancelToken* cancel;
  ProgressSink* progress;
  Clock::time_point start;
  double limit_s;
  double last_report = -1.0;

  static double seconds_left(void* self) {
    auto* c = static_cast<SolveClock*>(self);
    return c->limit_s - since(c->start);
  }
  static int should_stop(void* self) {
    auto* c = static_cast<SolveClock*>(self);
    if (c->cancel->cancelled()) return 1;
    const double used = since(c->start);
    if (used >= c->limit_s) return 1;
    if (used - c->last_report >= 0.05) {
      c->last_report = used;
      c->progress->report("phase 2: MILP", std::min(1.0, used / c->limit_s));
    }
    return 0;
  }
};

// The model's rows as coefficient triplets, for the module.
struct Triplets {
  std::vector<int> row_of, col_of;
  std::vector<double> coef, row_lo, row_hi;
};

Triplets triplets(const milp_detail::Phase2Model& md) {
  Triplets t;
  for (size_t r = 0; r < md.rows.size(); ++r) {
    const auto& row = md.rows[r];
    t.row_of.insert(t.row_of.end(), row.cols.size(), static_cast<int>(r));
    t.col_of.insert(t.col_of.end(), row.cols.begin(), row.cols.end());
    t.coef.insert(t.coef.end(), row.coefs.begin(), row.coefs.end());
    t.row_lo.push_back(row.lo);
    t.row_hi.push_back(row.hi);
  }
  return t;
}

}  // namespace

Expected<MilpPhase2Result> solve_phase2_milp(const MilpPhase2Input& in, const CancelToken& cancel,
                                             ProgressSink& progress) {
  const auto start = Clock::now();
  std::string unavailable;
  const milp_detail::MilpModule* module = milp_detail::milp_module(&unavailable);
  if (module == nullptr) return Error::internal("phase 2 MILP: " + unavailable);
  if (Status st = validate_phase2_input(in); !st) return st.error();
  progress.report("phase 2: MILP", 0.0);

  // The warm start is the incumbent to beat; an infeasible one is ignored, not trusted.
  MilpPhase2Result best;
  bool have_best = false;
  std::string warm_note;
  if (in.warm_start) {
    const double obj = evaluate_phase2(in, *in.warm_start, &warm_note);
    if (std::isfinite(obj)) {
      best.solution = *in.warm_start;
      compute_phase2_loads(in, best.solution);
      best.objective = obj;
      best.from_warm_start_only = true;
      have_best = true;
    }
  }

  const milp_detail::Phase2Model md = milp_detail::build_phase2_model(in);
  auto finish = [&](std::string status, double bound) -> Expected<MilpPhase2Result> {
    best.status = std::move(status);
    if (!warm_note.empty()) best.status += " (warm start ignored: " + warm_note + ")";
    best.bound = std::min(best.objective, std::max(bound, md.objective_floor));
    if (best.proven_optimal) best.bound = best.objective;
    best.gap = best.objective > 0 ? (best.objective - best.bound) / best.objective : 0.0;
    best.seconds = since(start);
    progress.report("phase 2: MILP", 1.0);
    return best;
  };
  if (cancel.cancelled()) {
    if (!have_best) return Error::cancelled();
    best.cancelled = true;
    return finish("cancelled", md.objective_floor);
  }

  const double limit = in.time_limit_s > 0 ? in.time_limit_s : 2.0;
  SolveClock clock{&cancel, &progress, start, limit};
  const Triplets t = triplets(md);
  std::vector<double> point;  // the warm start in model units
  if (have_best) point = milp_detail::model_point(md, in, best.solution);
  const SlimpackMilpProblem problem{
      .rows = static_cast<int>(md.rows.size()),
      .cols = md.cols(),
      .nonzeros = static_cast<long long>(t.coef.size()),
      .row_of = t.row_of.data(),
      .col_of = t.col_of.data(),
      .coef = t.coef.data(),
      .row_lo = t.row_lo.data(),
      .row_hi = t.row_hi.data(),
      .col_lo = md.col_lo.data(),
      .col_hi = md.col_hi.data(),
      .obj = md.obj.data(),
      .is_int = md.is_int.data(),
      .small_factor_rows = kSmallFactorRows,
      .warm_point = have_best ? point.data() : nullptr,
      .warm_objective = have_best ? point[md.zf()] + point[md.zb()] : 0.0,
      .seconds_left = &SolveClock::seconds_left,
      .should_stop = &SolveClock::should_stop,
      .context = &clock};
  std::vector<double> x(static_cast<std::size_t>(md.cols()));
  SlimpackMilpOutcome out{};
  out.solution = x.data();
  if (module->solve(&problem, &out) != 0)
    return Error::internal("phase 2 MILP: " + std::string(out.error));
  if (out.root_infeasible) {
    return Error::infeasible(
        "phase 2: the LP relaxation is infeasible: no packing satisfies the"
        " order, readiness, token cap and stage-0 memory rules");
  }

  const bool cancelled = cancel.cancelled();
  if (out.has_solution) {
    MilpPhase2Solution found = milp_detail::solution_from_point(md, in, x.data());
    const double obj = evaluate_phase2(in, found, nullptr);
    // Only a strict improvement replaces the warm start; CBC returns the warm start itself too.
    if (std::isfinite(obj) && (!have_best || obj < best.objective - 1e-12 * (1 + obj))) {
      best.solution = std::move(found);
      best.objective = obj;
      best.from_warm_start_only = false;
      have_best = true;
    }
  }
  const bool complete = out.status == 0 && !cancelled;
  if (!have_best) {
    if (cancelled) return Error::cancelled();
    if (complete && out.proven_infeasible) {
      return Error::infeasible(
          "phase 2: no packing satisfies the order, readiness, token cap and"
          " stage-0 memory rules (proven by CBC)");
    }
    return Error::infeasible("phase 2: CBC found no feasible packing within " +
                             std::to_string(limit) + " s (infeasibility not proven)");
  }
  best.cancelled = cancelled;
  best.proven_optimal = complete && out.proven_optimal != 0;
  double bound = out.best_possible;
  bound = std::isfinite(bound) && bound < 1e29 ? bound / md.time_scale : 0.0;
  std::string status = best.proven_optimal ? "optimal"
                       : cancelled         ? "cancelled"
                       : since(start) >= limit || out.seconds_limit_reached
                           ? "time limit"
                           : "stopped (CBC status " + std::to_string(out.status) + ")";
  return finish(std::move(status), bound);
}

}  // namespace slimpack
