#pragma once
// The phase-2 MILP as plain arrays (columns, bounds, integrality, sparse rows), independent of any
// solver library, so its layout can be built and inspected without CBC. Rows are scaled to O(1)
// coefficients (times by the largest item time, tokens by the token cap, bytes by the memory cap)
// because seconds, tokens and bytes differ by ten orders of magnitude.
#include <vector>

#include "solver/milp/milp_phase2.h"

namespace slimpack::milp_detail {

struct ModelRow {
  std::vector<int> cols;
  std::vector<double> coefs;
  double lo = 0.0;
  double hi = 0.0;
};

struct Phase2Model {
  int slices = 0, buckets = 0, mf = 1, mb = 1;
  std::vector<double> col_lo, col_hi, obj;
  std::vector<char> is_int;
  std::vector<ModelRow> rows;
  double time_scale = 1.0;       // model time units per second
  double objective_floor = 0.0;  // trivial lower bound on zF + zB, in seconds

  int cols() const { return static_cast<int>(obj.size()); }
  // Column layout: x[i][m], y[i][b], nf[k][m], nb[k][b], zF, zB.
  int x(int i, int m) const { return i * mf + m; }
  int y(int i, int b) const { return slices * mf + i * mb + b; }
  int nf(int k, int m) const { return slices * (mf + mb) + k * mf + m; }
  int nb(int k, int b) const { return slices * (mf + mb) + buckets * mf + k * mb + b; }
  int zf() const { return (slices + buckets) * (mf + mb); }
  int zb() const { return zf() + 1; }
};

// Builds the cumulative-form model of milp_phase2.h for a validated input.
Phase2Model build_phase2_model(const MilpPhase2Input& in);

// A feasible solution as a column vector (for a MIP start), in model units.
std::vector<double> model_point(const Phase2Model& model, const MilpPhase2Input& in,
                                const MilpPhase2Solution& sol);

// Rounds a column vector from the solver back to packs and counts, with z_f/z_b recomputed.
MilpPhase2Solution solution_from_point(const Phase2Model& model, const MilpPhase2Input& in,
                                       const double* values);

}  // namespace slimpack::milp_detail
