#pragma once
// The plain C interface between core (solve_phase2_milp in milp_cbc.cpp) and the CBC module
// (core/milp_module/milp_cbc_module.cpp, built as a shared module that links COIN-OR CBC). CBC
// pulls in Clp, LAPACK and OpenBLAS, whose worker threads start when the library is loaded and spin
// in sched_yield; every `slimpack` command linked them although only a MILP solve uses them. The
// module is loaded with dlopen on the first MILP solve (milp_loader.h), so nothing else maps them.
//
// C types only (no std::string, no exceptions across the boundary): the module and the programs
// are built by the same compiler, but the boundary then does not depend on it.

#ifdef __cplusplus
extern "C" {
#endif

// Bumped whenever the structs or the function's meaning change; the loader refuses another.
#define SLIMPACK_MILP_ABI_VERSION 1

// The model of milp_model.h in triplet form, and what the solve may use.
struct SlimpackMilpProblem {
  int rows;
  int cols;
  long long nonzeros;
  const int* row_of;  // [nonzeros] row of each coefficient
  const int* col_of;  // [nonzeros] column of each coefficient
  const double* coef;
  const double* row_lo;  // [rows]
  const double* row_hi;
  const double* col_lo;  // [cols]
  const double* col_hi;
  const double* obj;
  const char* is_int;        // [cols] nonzero: integer column
  int small_factor_rows;     // Clp's "go small" factorisation threshold
  const double* warm_point;  // [cols] a feasible point to beat, or null
  double warm_objective;     // its objective in model units
  // Wall-clock seconds the search may still take (the caller's limit less what it has used).
  double (*seconds_left)(void* context);
  // Polled at every CBC event; nonzero stops the search (cancel, time limit). Reports progress.
  int (*should_stop)(void* context);
  void* context;
};

struct SlimpackMilpOutcome {
  int root_infeasible;        // the LP relaxation is proven infeasible (nothing else is set)
  int root_solved;            // the root LP was solved to optimality (branch and bound ran)
  int status;                 // CbcModel::status()
  int proven_infeasible;      // CbcModel::isProvenInfeasible()
  int proven_optimal;         // CbcModel::isProvenOptimal()
  int seconds_limit_reached;  // CbcModel::isSecondsLimitReached()
  double best_possible;       // CbcModel::getBestPossibleObjValue(), model units
  int has_solution;           // `solution` holds CBC's best point
  double* solution;           // [cols], given by the caller
  char error[256];            // set when the function returns nonzero (an exception in CBC)
};

// Returns 0 when the solve ran (its outcome in `out`), nonzero with out->error set otherwise.
typedef int (*SlimpackMilpSolveFn)(const struct SlimpackMilpProblem* problem,
                                   struct SlimpackMilpOutcome* out);
typedef int (*SlimpackMilpAbiVersionFn)(void);

#define SLIMPACK_MILP_SOLVE_SYMBOL "slimpack_milp_solve"
#define SLIMPACK_MILP_ABI_SYMBOL "slimpack_milp_abi_version"

#ifdef __cplusplus
}
#endif
