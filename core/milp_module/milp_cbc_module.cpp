// The CBC side of solve_phase2_milp, built as the shared module slimpack-milp-cbc that core loads
// on the first MILP solve (solver/milp/milp_loader.h). Only this file includes CBC; the model, the
// warm start and the checks stay in core (milp_cbc.cpp), so the module is the solver call alone.
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

#include <algorithm>
#include <cstdio>
#include <exception>

#include "solver/milp/milp_module_abi.h"

namespace {

// Stops CBC at its next event when the caller says so (cancel, time limit; the caller also
// reports progress there). CBC clones the handler, so it holds only the problem pointer.
class StopHandler : public CbcEventHandler {
 public:
  explicit StopHandler(const SlimpackMilpProblem* problem) : problem_(problem) {}

  using CbcEventHandler::event;
  CbcAction event(CbcEvent) override {
    return problem_->should_stop(problem_->context) != 0 ? stop : noAction;
  }
  CbcEventHandler* clone() const override { return new StopHandler(*this); }

 private:
  const SlimpackMilpProblem* problem_;
};

OsiClpSolverInterface load(const SlimpackMilpProblem& p) {
  // Built from triplets in one go: appending rows one by one reallocates and was quadratic.
  CoinPackedMatrix matrix(false, p.row_of, p.col_of, p.coef, static_cast<CoinBigIndex>(p.nonzeros));
  // Trailing empty rows or columns would otherwise be dropped from the dimensions.
  matrix.setDimensions(p.rows, p.cols);
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  solver.loadProblem(matrix, p.col_lo, p.col_hi, p.obj, p.row_lo, p.row_hi);
  // Clp's default LU allocates ~160-320 KB work areas on every refactorisation, even for a
  // 50-row LP; once glibc has raised its mmap threshold (after any earlier solve in the process)
  // those come from the heap top and are trimmed again, and the brk churn made repeated solves
  // 5-10x slower than the first. The simple factorisation sizes its areas to the problem.
  solver.getModelPtr()->factorization()->setGoSmallThreshold(p.small_factor_rows);
  for (int c = 0; c < p.cols; ++c) {
    if (p.is_int[c]) solver.setInteger(c);
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

void solve(const SlimpackMilpProblem& p, SlimpackMilpOutcome& out) {
  CbcModel model(load(p));  // CbcModel keeps its own copy of the solver
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  model.setUseElapsedTime(true);
  model.setAllowableGap(1e-9);
  model.setAllowableFractionGap(0.0);
  model.setCutoffIncrement(1e-9);  // accept any strictly better solution, however small the gain
  StopHandler handler(&p);
  model.passInEventHandler(&handler);
  add_cuts_and_heuristics(model);

  // The root LP is the one step CBC's event handler cannot interrupt, so Clp gets the time limit
  // itself. Primal simplex solved the replica-sized root LPs about twice as fast as dual.
  auto* clp = dynamic_cast<OsiClpSolverInterface*>(model.solver());
  if (clp != nullptr)
    clp->getModelPtr()->setMaximumWallSeconds(std::max(1e-3, p.seconds_left(p.context)));
  model.solver()->setHintParam(OsiDoDualInInitial, false, OsiHintDo);
  model.initialSolve();
  // Node LPs must not stop on time: CBC could read a stopped LP as a pruned node.
  if (clp != nullptr) clp->getModelPtr()->setMaximumWallSeconds(-1.0);
  if (model.solver()->isProvenPrimalInfeasible()) {
    out.root_infeasible = 1;
    return;
  }
  out.root_solved = model.solver()->isProvenOptimal() ? 1 : 0;
  // Already verified by the caller; CBC's own check re-solves an LP and cost 0.3 s on
  // replica-sized models.
  if (p.warm_point != nullptr) model.setBestSolution(p.warm_point, p.cols, p.warm_objective, false);
  // CBC times its limit from the start of branchAndBound; give it what is left of ours.
  const double left = p.seconds_left(p.context);
  if (out.root_solved && left > 0 && p.should_stop(p.context) == 0) {
    model.setMaximumSeconds(left);
    model.branchAndBound();
  }
  if (const double* x = model.bestSolution(); x != nullptr) {
    std::copy(x, x + p.cols, out.solution);
    out.has_solution = 1;
  }
  out.status = model.status();
  out.proven_infeasible = model.isProvenInfeasible() ? 1 : 0;
  out.proven_optimal = model.isProvenOptimal() ? 1 : 0;
  out.seconds_limit_reached = model.isSecondsLimitReached() ? 1 : 0;
  out.best_possible = model.getBestPossibleObjValue();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int slimpack_milp_abi_version(void) {
  return SLIMPACK_MILP_ABI_VERSION;
}

extern "C" __attribute__((visibility("default"))) int slimpack_milp_solve(
    const SlimpackMilpProblem* problem, SlimpackMilpOutcome* out) {
  // CBC reports some failures by throwing (CoinError); nothing may cross the C boundary.
  try {
    solve(*problem, *out);
    return 0;
  } catch (const CoinError& e) {
    std::snprintf(out->error, sizeof out->error, "CBC: %s (%s)", e.message().c_str(),
                  e.methodName().c_str());
  } catch (const std::exception& e) {
    std::snprintf(out->error, sizeof out->error, "CBC: %s", e.what());
  } catch (...) {
    std::snprintf(out->error, sizeof out->error, "CBC: unknown exception");
  }
  return 1;
}
