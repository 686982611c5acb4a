// solve_phase2_milp with COIN-OR CBC. Without CBC (SLIMPACK_ENABLE_MILP=OFF) the function exists
// and says so, so callers need no #ifdef of their own.
#include <chrono>
#include <cmath>
#include <limits>

#include "solver/milp/milp_model.h"
#include "solver/milp/milp_phase2.h"

#ifdef SLIMPACK_HAVE_MILP
#include <CbcEventHandler.hpp>
#include <CbcHeuristic.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicLocal.hpp>
#include <CbcHeuristicRINS.hpp>
#include <CbcModel.hpp>
#include <CglProbing.hpp>
#include <ClpFactorization.hpp>
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>
#endif

namespace slimpack {

#ifndef SLIMPACK_HAVE_MILP

bool milp_available() {
  return false;
}

Expected<MilpPhase2Result> solve_phase2_milp(const MilpPhase2Input&, const CancelToken&,
                                             ProgressSink&) {
  return Error::internal("phase 2 MILP: this build has no CBC (SLIMPACK_ENABLE_MILP=OFF)");
}

#else

bool milp_available() {
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kSmallFactorRows = 1000;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Stops CBC at its next event once the token fires or the wall-clock deadline passes, and
// reports progress as the share of the time limit used (throttled to ~20 updates/s). CBC clones
// the handler, so it holds only copyable state: the token shares its flag with the caller's.
class StopHandler : public CbcEventHandler {
 public:
  StopHandler(CancelToken cancel, ProgressSink* progress, Clock::time_point start, double limit_s)
      : cancel_(std::move(cancel)), progress_(progress), start_(start), limit_s_(limit_s) {}

  using CbcEventHandler::event;
  CbcAction event(CbcEvent) override {
    if (cancel_.cancelled()) return stop;
    const double used = since(start_);
    if (used >= limit_s_) return stop;
    if (used - last_report_ >= 0.05) {
      last_report_ = used;
      progress_->report("phase 2: MILP", std::min(1.0, used / limit_s_));
    }
    return noAction;
  }
  CbcEventHandler* clone() const override { return new StopHandler(*this); }

 private:
  CancelToken cancel_;
  ProgressSink* progress_;
  Clock::time_point start_;
  double limit_s_;
  double last_report_ = -1.0;
};

OsiClpSolverInterface load(const milp_detail::Phase2Model& md) {
  // Built from triplets in one go: appending rows one by one reallocates and was quadratic.
  std::vector<int> row_of, col_of;
  std::vector<double> coef, row_lo, row_hi;
  for (size_t r = 0; r < md.rows.size(); ++r) {
    const auto& row = md.rows[r];
    row_of.insert(row_of.end(), row.cols.size(), static_cast<int>(r));
    col_of.insert(col_of.end(), row.cols.begin(), row.cols.end());
    coef.insert(coef.end(), row.coefs.begin(), row.coefs.end());
    row_lo.push_back(row.lo);
    row_hi.push_back(row.hi);
  }
  CoinPackedMatrix matrix(false, row_of.data(), col_of.data(), coef.data(),
                          static_cast<CoinBigIndex>(coef.size()));
  // Trailing empty rows or columns would otherwise be dropped from the dimensions.
  matrix.setDimensions(static_cast<int>(md.rows.size()), md.cols());
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  solver.loadProblem(matrix, md.col_lo.data(), md.col_hi.data(), md.obj.data(), row_lo.data(),
                     row_hi.data());
  // Clp's default LU allocates ~160-320 KB work areas on every refactorisation, even for a
  // 50-row LP; once glibc has raised its mmap threshold (after any earlier solve in the process)
  // those come from the heap top and are trimmed again, and the brk churn made repeated solves
  // 5-10x slower than the first. The simple factorisation sizes its areas to the problem.
  solver.getModelPtr()->factorization()->setGoSmallThreshold(kSmallFactorRows);
  for (int c = 0; c < md.cols(); ++c) {
    if (md.is_int[c]) solver.setInteger(c);
  }
  return solver;
}

// Probing, pseudo-cost branching and four primal heuristics. Measured on the tiny test instances
// and on replica-sized ones (up to 64 slices, 8 buckets, 16 + 16 packs): Gomory, knapsack, clique,
// MIR and flow-cover cuts, even at the root only, cost 3-10x the time per solve and never reduced
// the node count (the weak bound of a min-max objective is not a single-row matter); strong
// branching spent seconds in degenerate LPs that ignore the time limit, so it is off. RINS and the
// feasibility pump are what improve a heuristic warm start on the larger instances.
void add_cuts_and_heuristics(CbcModel& model) {
  CglProbing probing;
  probing.setUsingObjective(true);
  model.addCutGenerator(&probing, -1, "probing");  // CBC keeps clones of all of these
  model.setNumberStrong(0);
  CbcRounding rounding(model);
  model.addHeuristic(&rounding);
  CbcHeuristicLocal local(model);
  model.addHeuristic(&local);
  CbcHeuristicRINS rins(model);
  model.addHeuristic(&rins);
  CbcHeuristicFPump pump(model);
  model.addHeuristic(&pump);
}

}  // namespace

Expected<MilpPhase2Result> solve_phase2_milp(const MilpPhase2Input& in, const CancelToken& cancel,
                                             ProgressSink& progress) {
  const auto start = Clock::now();
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

  CbcModel model(load(md));  // CbcModel keeps its own copy of the solver
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  model.setUseElapsedTime(true);
  const double limit = in.time_limit_s > 0 ? in.time_limit_s : 2.0;
  model.setAllowableGap(1e-9);
  model.setAllowableFractionGap(0.0);
  model.setCutoffIncrement(1e-9);  // accept any strictly better solution, however small the gain
  StopHandler handler(cancel, &progress, start, limit);
  model.passInEventHandler(&handler);
  add_cuts_and_heuristics(model);

  // The root LP is the one step CBC's event handler cannot interrupt, so Clp gets the time limit
  // itself. Primal simplex solved the replica-sized root LPs about twice as fast as dual.
  auto* clp = dynamic_cast<OsiClpSolverInterface*>(model.solver());
  if (clp != nullptr)
    clp->getModelPtr()->setMaximumWallSeconds(std::max(1e-3, limit - since(start)));
  model.solver()->setHintParam(OsiDoDualInInitial, false, OsiHintDo);
  model.initialSolve();
  // Node LPs must not stop on time: CBC could read a stopped LP as a pruned node.
  if (clp != nullptr) clp->getModelPtr()->setMaximumWallSeconds(-1.0);
  if (model.solver()->isProvenPrimalInfeasible()) {
    return Error::infeasible(
        "phase 2: the LP relaxation is infeasible: no packing satisfies the"
        " order, readiness, token cap and stage-0 memory rules");
  }
  const bool root_solved = model.solver()->isProvenOptimal();
  if (have_best) {
    // Already verified by evaluate_phase2; CBC's own check re-solves an LP and cost 0.3 s on
    // replica-sized models.
    const std::vector<double> point = milp_detail::model_point(md, in, best.solution);
    model.setBestSolution(point.data(), md.cols(), point[md.zf()] + point[md.zb()], false);
  }
  // CBC times its limit from the start of branchAndBound; give it what is left of ours.
  const double left = limit - since(start);
  if (root_solved && left > 0 && !cancel.cancelled()) {
    model.setMaximumSeconds(left);
    model.branchAndBound();
  }

  const bool cancelled = cancel.cancelled();
  const double* x = model.bestSolution();
  if (x != nullptr) {
    MilpPhase2Solution found = milp_detail::solution_from_point(md, in, x);
    const double obj = evaluate_phase2(in, found, nullptr);
    // Only a strict improvement replaces the warm start; CBC returns the warm start itself too.
    if (std::isfinite(obj) && (!have_best || obj < best.objective - 1e-12 * (1 + obj))) {
      best.solution = std::move(found);
      best.objective = obj;
      best.from_warm_start_only = false;
      have_best = true;
    }
  }
  const bool complete = model.status() == 0 && !cancelled;
  if (!have_best) {
    if (cancelled) return Error::cancelled();
    if (complete && model.isProvenInfeasible()) {
      return Error::infeasible(
          "phase 2: no packing satisfies the order, readiness, token cap and"
          " stage-0 memory rules (proven by CBC)");
    }
    return Error::infeasible("phase 2: CBC found no feasible packing within " +
                             std::to_string(limit) + " s (infeasibility not proven)");
  }
  best.cancelled = cancelled;
  best.proven_optimal = complete && model.isProvenOptimal();
  double bound = model.getBestPossibleObjValue();
  bound = std::isfinite(bound) && bound < 1e29 ? bound / md.time_scale : 0.0;
  std::string status = best.proven_optimal ? "optimal"
                       : cancelled         ? "cancelled"
                       : since(start) >= limit || model.isSecondsLimitReached()
                           ? "time limit"
                           : "stopped (CBC status " + std::to_string(model.status()) + ")";
  return finish(std::move(status), bound);
}

#endif  // SLIMPACK_HAVE_MILP

}  // namespace slimpack
